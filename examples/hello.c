/* hello: put a job, pop it, complete it, print its state. */
#include <stdio.h>
#include <qless/qless.h>

int main(void)
{
	qless_client *client = NULL;   /* NULL URL: $QLESS_URL, else the embedded server */
	qless_queue *queue = NULL;
	qless_joblist *popped = NULL;
	qless_job *job = NULL;
	char *jid = NULL;              /* owned: qless_free */
	int rc;

	if ((rc = qless_client_new(&client, NULL, NULL)) != QLESS_OK ||
	    (rc = qless_queue_new(&queue, client, "example")) != QLESS_OK ||
	    (rc = qless_queue_put(&jid, queue, "Greeter", "{\"name\": \"world\"}", NULL)) != QLESS_OK ||
	    (rc = qless_queue_pop(&popped, queue, 1)) != QLESS_OK ||
	    (rc = qless_job_complete(qless_joblist_get(popped, 0), NULL)) != QLESS_OK ||
	    (rc = qless_client_get_job(&job, client, jid)) != QLESS_OK) {
		fprintf(stderr, "hello: %s: %s\n", qless_error_name(rc), qless_error_last_message());
		return 1;
	}
	printf("%s is %s\n", jid, qless_job_state(job));   /* "... is complete" */

	qless_job_free(job);
	qless_joblist_free(popped);
	qless_free(jid);
	qless_queue_free(queue);
	qless_client_free(client);
	return 0;
}
