/* The calls a worker makes on a tree job it holds (qless/tree.h): startup
 * done, suspend, shutdown done. */
#include <string.h>

#include <hiredis/hiredis.h>

#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "client_state.h"
#include "errors.h"
#include "job_snapshot.h"

/* `cmd <jid> <worker>` on the held job; *out (may be NULL) the reply. */
static int held_call(qless_job *job, const char *F, const char *cmd, redisReply **out)
{
	qless_client *c;
	qless_args a;

	QLESS_CHECK_NULL(F, job);
	c = qless__job_client(job);
	qless__args_init(&a);
	qless__args_add(&a, qless_job_jid(job));
	qless__args_add(&a, c->worker_name);
	return qless__call(c, F, cmd, &a, out);
}

int qless_job_started(qless_job *job)
{
	static const char F[] = "qless_job_started";
	redisReply *r;
	int rc = held_call(job, F, "job.started", &r);
	if (rc == QLESS_OK)
		freeReplyObject(r);
	return rc;
}

/* The state a call that ended the run replied, into the job. */
static int released(qless_job *job, const char *F, redisReply *r, int *out_requeued)
{
	char state[32];
	if (r->type != REDIS_REPLY_STRING || r->len == 0 || r->len >= sizeof state) {
		freeReplyObject(r);
		return qless__err(QLESS_EPROTOCOL, "%s: expected a state in the reply", F);
	}
	memcpy(state, r->str, r->len);
	state[r->len] = '\0';
	freeReplyObject(r);
	if (out_requeued != NULL)
		*out_requeued = strcmp(state, "suspended") != 0;
	return qless__job_released(job, state, F);
}

int qless_job_suspend(int *out_requeued, qless_job *job)
{
	static const char F[] = "qless_job_suspend";
	redisReply *r;
	int rc;
	if (out_requeued != NULL)
		*out_requeued = 0;
	if ((rc = held_call(job, F, "job.suspend", &r)) != QLESS_OK)
		return rc;
	return released(job, F, r, out_requeued);
}

int qless_job_terminated(qless_job *job)
{
	static const char F[] = "qless_job_terminated";
	redisReply *r;
	int rc = held_call(job, F, "job.terminated", &r);
	if (rc != QLESS_OK)
		return rc;
	return released(job, F, r, NULL);
}
