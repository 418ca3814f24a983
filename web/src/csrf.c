/*
 * CSRF tokens: every mutating request (a POST) carries X-CSRF-Token, which
 * only a page of this origin can read (from GET /api/session), so a form or
 * script on another site cannot forge one.
 */
#include <string.h>
#include <sys/random.h>
#include <stdlib.h>
#include <stdio.h>
#include "server.h"

void web_random_hex(char out[65])
{
	unsigned char b[32];
	size_t got = 0;
	while (got < sizeof b) {
		ssize_t n = getrandom(b + got, sizeof b - got, 0);
		if (n > 0)
			got += (size_t)n;
		else
			abort();   /* no randomness: never hand out a guessable token */
	}
	for (size_t i = 0; i < sizeof b; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

int web_csrf_ok(struct MHD_Connection *conn, const char *expected)
{
	const char *got = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-CSRF-Token");
	return got != NULL && expected != NULL && web_secret_equal(got, expected);
}

int web_secret_equal(const char *a, const char *b)
{
	size_t n = strlen(a);
	if (strlen(b) != n)
		return 0;
	unsigned char diff = 0;
	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}
