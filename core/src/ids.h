/* Names libqless makes up (ids.c). */
#ifndef QLESS_IDS_H
#define QLESS_IDS_H

#include "qless/qless.h"

int qless__make_jid(char out[QLESS_JID_SIZE]);
/* hostname-pid (owned), or NULL on OOM. */
char *qless__default_worker_name(void);

#endif
