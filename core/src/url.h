/* redis:// and unix:// URLs (url.c). */
#ifndef QLESS_URL_H
#define QLESS_URL_H


typedef struct qless_url {
	char *host;      /* TCP host, or NULL for a unix socket */
	int port;
	char *path;      /* unix socket path */
	int db;
	char *user;
	char *password;
	char *namespace_name; /* ?namespace=NAME (checked by the client), or NULL */
} qless_url;
int qless__url_parse(const char *url, qless_url *out);
void qless__url_free(qless_url *u);

#endif
