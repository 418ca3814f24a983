/* Unique jids (unique.c). */
#ifndef QLESS_UNIQUE_H
#define QLESS_UNIQUE_H

#include "qless/qless.h"

/* The jid a put or recur sends: *jid = given (the caller's jid) if not NULL,
 * else buf holding the unique jid (unique set; the key form when key is not
 * NULL) or a new one. cron (NULL for none) and interval as qless_unique_jid. */
int qless__entry_jid(const char *func, char buf[QLESS_UNIQUE_JID_SIZE], const char **jid, const char *given,
                     int unique, const char *key, const char *queue, const char *klass, const char *data,
                     const char *cron, double interval);
/* qless_unique_jid and qless_unique_jid_for_key with messages naming func. */
int qless__unique_jid(const char *func, char out[QLESS_UNIQUE_JID_SIZE], const char *queue, const char *klass,
                      const char *data, const char *cron, double interval);
int qless__unique_jid_for_key(const char *func, char out[QLESS_UNIQUE_JID_SIZE], const char *queue,
                              const char *key);

#endif
