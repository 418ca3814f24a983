/* redis://, rediss:// and unix:// URLs (url.c). */
#ifndef QLESS_URL_H
#define QLESS_URL_H

#include <stddef.h>


typedef struct qless_url {
	char *host;      /* TCP host, or NULL for a unix socket */
	int port;
	char *path;      /* unix socket path */
	int db;
	char *user;
	char *password;
	int tls;         /* rediss:// */
	char *tls_ca;    /* ?ca=: PEM file of the CA(s) to trust; NULL: the system's */
	char *tls_cert;  /* ?cert=: client certificate (PEM), or NULL */
	char *tls_key;   /* ?key=: its private key (PEM); NULL: in the cert file */
	int tls_insecure; /* ?insecure: no certificate or host name verification */
	char *namespace_name; /* ?namespace=NAME (checked by the client), or NULL */
	int wait_replicas;    /* ?wait_replicas=N, else 0 */
	int wait_timeout_ms;  /* ?wait_timeout_ms=MS (> 0), else 0 */
} qless_url;
int qless__url_parse(const char *url, qless_url *out);
/* Deep copy of src into *dst; QLESS_OK or QLESS_ENOMEM (recorded, *dst empty). */
int qless__url_copy(qless_url *dst, const qless_url *src);
void qless__url_free(qless_url *u);
/* Percent-decodes s[0..n) into a new string (owned by the caller); NULL on a
 * bad escape or an embedded NUL (sets *bad), NULL alone out of memory. */
char *qless__url_pct_decode(const char *s, size_t n, int *bad);
/* s[0..n) as a decimal number 0..max into *out; -1 if it is not one. */
int qless__url_parse_uint(const char *s, size_t n, long max, int *out);

#endif
