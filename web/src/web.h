/*
 * qless web: what the command line calls. The server serves the dashboard
 * pages (built in), the JSON API and /metrics over libqless's public API.
 * Nothing here is part of libqless's ABI: this is a private static library.
 */
#ifndef QLESS_WEB_H
#define QLESS_WEB_H

#include <stdio.h>
#include <qless/qless.h>

typedef struct web_options {
	const char *url;        /* the qless server; NULL: $QLESS_URL, else the embedded one */
	const char *listen;     /* "ADDR:PORT" ("[v6]:PORT"); NULL: 127.0.0.1:5678; port 0: any free one */
	int read_only;          /* every mutating request answers 403 */
	const char *auth_file;  /* lines user:role:hash; required for a non-loopback address */
	int pool;               /* connections to the qless server; 0: 4 */
	FILE *log;              /* the "listening on" line and request errors; NULL: stderr */
} web_options;

/* Serves until SIGINT or SIGTERM. Returns 0, or 2 for bad options (err
 * says what; nothing was started), or 1 when the server could not start. */
int web_serve(const web_options *opts, char *err, size_t errlen);

/* A crypt(3) hash of password (yescrypt, the system's preferred method).
 * *out owned (free). Returns 0, else -1 with err set. */
int web_hash_password(char **out, const char *password, char *err, size_t errlen);

/* The Prometheus text of /metrics. *out owned (free). Returns QLESS_OK or a
 * libqless code (qless_error_last_message says why); *calls (may be NULL)
 * gets the number of protocol calls made. */
int web_metrics_text(char **out, int *calls, qless_client *client);

#endif
