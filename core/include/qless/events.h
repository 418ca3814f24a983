/*
 * qless_events: a subscription to qless pub/sub channels on a connection of
 * its own. Channel names are given without the "ql:" prefix: "log",
 * "w:<worker>", "put", "popped", "completed", "failed", "stalled",
 * "canceled", "track", "untrack".
 */
#ifndef QLESS_EVENTS_H
#define QLESS_EVENTS_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Subscribes to the channels (on a connection of its own); *out owned
 * (qless_events_free); keeps the client alive. */
QLESS_EXTERN(int) qless_events_new(qless_events **out, qless_client *client,
                                   QLESS_STRV(channels, nchannels));
QLESS_EXTERN(void) qless_events_free(qless_events *events);

/*
 * Waits up to timeout_ms (< 0: forever, 0: only what has arrived) for the
 * next message. On a message returns QLESS_OK with *channel (without the
 * "ql:" prefix) and *message both owned; on timeout returns QLESS_OK with
 * both set to NULL.
 */
QLESS_EXTERN(int) qless_events_next(char **channel, char **message, qless_events *events, int timeout_ms);

#ifdef __cplusplus
}
#endif
#endif
