/* TLS under a connection (conn_tls.c, OpenSSL): handshake with certificate
 * and host name verification, and reads and writes on a non-blocking
 * socket. Used by conn.c only. */
#ifndef QLESS_CONN_TLS_H
#define QLESS_CONN_TLS_H

#include <stddef.h>
#include <sys/types.h>

#include "url.h"

typedef struct qless__tls qless__tls;

/* Runs the TLS handshake on the connected, non-blocking socket fd with the
 * settings of u (CA, client certificate, insecure), checking that the
 * server's certificate is for host (a name or an IP address). Each wait is
 * bounded by ms (<= 0: none). NULL on failure, with what failed in err
 * (certificate verify failed: ..., host name mismatch, expired). */
qless__tls *qless__tls_open(int fd, const qless_url *u, const char *host, int ms, char *err, size_t size);
/* > 0: bytes moved; 0: nothing now, poll fd for *want (POLLIN or POLLOUT);
 * -1: the connection failed or was closed (err says which). A write that
 * returned 0 must be repeated with the same bytes. */
ssize_t qless__tls_read(qless__tls *t, void *buf, size_t n, short *want, char *err, size_t size);
ssize_t qless__tls_write(qless__tls *t, const void *buf, size_t n, short *want, char *err, size_t size);
/* Whether bytes wait in the TLS layer (decrypted data, or records read
 * ahead and not processed yet): a poll of the socket would not show them. */
int qless__tls_pending(const qless__tls *t);
void qless__tls_free(qless__tls *t);

#endif
