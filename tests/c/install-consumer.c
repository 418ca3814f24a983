/* Tiny consumer of an installed libqless (c.pkgconfig): put, pop, complete
 * one job against the url in argv[1]; exit 0 only if everything worked. */
#include <stdio.h>
#include <string.h>
#include <qless/qless.h>

#define CHECK(expr) do { int rc_ = (expr); if (rc_ != QLESS_OK) { \
	fprintf(stderr, "%s: %s %s\n", #expr, qless_error_name(rc_), qless_error_last_message()); \
	return 1; } } while (0)

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (qless_version_number() != QLESS_VERSION_NUMBER) {
		fprintf(stderr, "header %s, library %s\n", QLESS_VERSION, qless_version());
		return 1;
	}
	qless_client *c = NULL;
	CHECK(qless_client_new(&c, argv[1], NULL));
	qless_queue *q = NULL;
	CHECK(qless_queue_new(&q, c, "pc-queue"));
	char *jid = NULL;
	CHECK(qless_queue_put(&jid, q, "PkgConfig", "{\"x\": 1}", NULL));
	qless_joblist *l = NULL;
	CHECK(qless_queue_pop(&l, q, 1));
	if (qless_joblist_size(l) != 1 || strcmp(qless_job_jid(qless_joblist_get(l, 0)), jid) != 0) {
		fprintf(stderr, "popped the wrong job\n");
		return 1;
	}
	CHECK(qless_job_complete(qless_joblist_get(l, 0), NULL));
	qless_job *job = NULL;
	CHECK(qless_client_get_job(&job, c, jid));
	int ok = strcmp(qless_job_state(job), "complete") == 0;
	printf("%s %s (libqless %s)\n", jid, qless_job_state(job), qless_version());
	qless_job_free(job);
	qless_joblist_free(l);
	qless_free(jid);
	qless_queue_free(q);
	qless_client_free(c);
	return ok ? 0 : 1;
}
