/* wait_replicas (wait.c): a WAIT after calls that may have written. */
#ifndef QLESS_WAIT_H
#define QLESS_WAIT_H

#include "qless/common.h"

/* With c->wait_replicas > 0: WAIT on c->ctx, the node that just ran the
 * client's calls, until that many replicas acknowledged its writes or
 * c->wait_timeout_ms passed. QLESS_EIO, saying how many acknowledged, when
 * fewer did (the calls ran on the primary: a failover now could lose
 * them). QLESS_OK at once when wait_replicas is 0. */
int qless__wait_replicas(qless_client *c, const char *func);
/* 0 for a protocol command known to only read (get, multiget, length,
 * config.get ...): no WAIT after it, which would otherwise also wait out
 * wait_timeout_ms whenever a primary has too few replicas. */
int qless__call_writes(const char *cmd);

#endif
