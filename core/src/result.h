/* qless_result (result.c): how a performed job ends, as the job loop reads it. */
#ifndef QLESS_RESULT_H
#define QLESS_RESULT_H

#include "qless/qless.h"

/* DROP: the job is left to its lock (a step before perform could not
 * reach Redis, or the job vanished); the reason is logged where it arose. */
typedef enum qless_outcome {
	QLESS_OUTCOME_COMPLETE, QLESS_OUTCOME_FAIL, QLESS_OUTCOME_RETRY,
	QLESS_OUTCOME_SUSPEND, QLESS_OUTCOME_TERMINATED, QLESS_OUTCOME_DROP
} qless_outcome;

struct qless_result {
	qless_outcome outcome;
	char *group, *message;
	double delay;
	int oom;
	const char *jid;       /* borrowed from the job for messages */
	int tree;              /* the job runs as a tree job: suspend is allowed */
};

/* Sets r's outcome (group and message copied); QLESS_ENOMEM with r->oom set
 * when a copy fails. */
int qless__result_set(qless_result *r, qless_outcome outcome, const char *group, const char *message, double delay);

#endif
