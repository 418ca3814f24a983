/*
 * producer: puts jobs into a qless queue.
 *
 *   producer [-u URL] [-b] QUEUE COUNT
 *
 * Puts COUNT jobs of class "Square" with data {"n": 1} ... {"n": COUNT} into
 * QUEUE; with -b also one malformed job ({"n": "oops"}) that the worker
 * example will fail. URL defaults to $QLESS_URL, else the embedded server.
 * Prints each jid; exits non-zero on the first error.
 *
 * Build against an installed libqless:
 *   cc producer.c $(pkg-config --cflags --libs libqless) -o producer
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <qless/qless.h>

/* Prints the library's description of the last failure. */
static int fail(const char *what, int rc)
{
	fprintf(stderr, "producer: %s: %s: %s\n", what, qless_error_name(rc), qless_error_last_message());
	return 1;
}

int main(int argc, char **argv)
{
	const char *url = NULL; /* NULL: $QLESS_URL or the local default */
	int bad = 0, opt;
	while ((opt = getopt(argc, argv, "u:b")) != -1) {
		switch (opt) {
		case 'u': url = optarg; break;
		case 'b': bad = 1; break;
		default: goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;
	const char *queue_name = argv[optind];
	long count = strtol(argv[optind + 1], NULL, 10);
	if (count < 0)
		goto usage;

	qless_client *client = NULL;
	int rc = qless_client_new(&client, url, NULL);
	if (rc != QLESS_OK)
		return fail("connect", rc);

	/* A queue handle does no I/O; the queue exists once a job is put. */
	qless_queue *queue = NULL;
	rc = qless_queue_new(&queue, client, queue_name);
	if (rc != QLESS_OK) {
		qless_client_free(client);
		return fail("queue", rc);
	}

	int status = 0;
	for (long i = 1; i <= count + bad && status == 0; i++) {
		char data[64];
		if (i <= count)
			snprintf(data, sizeof data, "{\"n\": %ld}", i);
		else
			snprintf(data, sizeof data, "{\"n\": \"oops\"}");
		char *jid = NULL; /* owned: released with qless_free */
		rc = qless_queue_put(&jid, queue, "Square", data, NULL);
		if (rc != QLESS_OK) {
			status = fail("put", rc);
			break;
		}
		printf("%s %s\n", jid, data);
		qless_free(jid);
	}

	/* Handles can be freed in any order. */
	qless_queue_free(queue);
	qless_client_free(client);
	return status;

usage:
	fprintf(stderr, "usage: %s [-u URL] [-b] QUEUE COUNT\n", argv[0]);
	return 2;
}
