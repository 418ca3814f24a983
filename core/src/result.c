/* qless_result: how the code performing a job says the job ends (complete
 * unless it says otherwise), read by the job loop once perform returns. */
#include <stdlib.h>

#include "qless/qless.h"
#include "errors.h"
#include "result.h"
#include "util.h"

int qless__result_set(qless_result *r, qless_outcome outcome, const char *group, const char *message, double delay)
{
	free(r->group);
	free(r->message);
	r->group = group ? qless__strdup(group) : NULL;
	r->message = message ? qless__strdup(message) : NULL;
	r->outcome = outcome;
	r->delay = delay;
	r->oom = (group && !r->group) || (message && !r->message);
	return r->oom ? qless__err_nomem("qless_result") : QLESS_OK;
}

int qless_result_fail(qless_result *result, const char *group, const char *message)
{
	static const char F[] = "qless_result_fail";
	int rc;
	QLESS_CHECK_NULL(F, result);
	if ((rc = qless__check_failure(F, group, message, 0)) != QLESS_OK)
		return rc;
	return qless__result_set(result, QLESS_OUTCOME_FAIL, group, message, 0);
}

int qless_result_retry(qless_result *result, const char *group, const char *message, double delay)
{
	static const char F[] = "qless_result_retry";
	int rc;
	QLESS_CHECK_NULL(F, result);
	if ((rc = qless__check_failure(F, group, message, 1)) != QLESS_OK)
		return rc;
	if (!qless__finite(delay) || delay > 1e9)
		return qless__err(QLESS_EINVAL, "%s: delay must be a finite number (< 0: the backoff policy)", F);
	return qless__result_set(result, QLESS_OUTCOME_RETRY, group, message, delay);
}

int qless_result_suspend(qless_result *result)
{
	static const char F[] = "qless_result_suspend";
	QLESS_CHECK_NULL(F, result);
	if (!result->tree)
		return qless__err(QLESS_ESTATE, "%s: job %s is not run as a tree job (a plain job, or its class "
		                  "is not in the worker's tree_klasses)", F, result->jid ? result->jid : "?");
	return qless__result_set(result, QLESS_OUTCOME_SUSPEND, NULL, NULL, 0);
}
