/* The worker registry: the port configuration of a queue's job classes,
 * copied into their new tree jobs (qless/tree.h). */
#include "qless/qless.h"
#include "args.h"
#include "call.h"
#include "errors.h"
#include "queue_handle.h"
#include "tree_args.h"

/* One integer reply 0 or 1 into an optional flag. */
static int flag_call(qless_client *c, const char *F, const char *cmd, qless_args *a, int *out)
{
	int64_t n = 0;
	int rc = qless__call_int(c, F, cmd, a, &n);
	if (rc == QLESS_OK && out != NULL)
		*out = n != 0;
	return rc;
}

int qless_queue_register_klass(int *out_new, qless_queue *queue, const char *klass, const char *config_json)
{
	static const char F[] = "qless_queue_register_klass";
	qless_args a;
	int rc;

	if (out_new != NULL)
		*out_new = 0;
	QLESS_CHECK_NULL(F, queue);
	if ((rc = qless__check_text(F, "klass", klass)) != QLESS_OK ||
	    (rc = qless__check_json_object(F, "config_json", config_json)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, qless_queue_name(queue));
	qless__args_add(&a, klass);
	qless__args_add(&a, config_json);
	return flag_call(qless__queue_client(queue), F, "worker.register", &a, out_new);
}

int qless_queue_klass_config(char **out_json, qless_queue *queue, const char *klass)
{
	static const char F[] = "qless_queue_klass_config";
	qless_args a;
	int rc;

	QLESS_CHECK_NULL(F, out_json);
	*out_json = NULL;
	QLESS_CHECK_NULL(F, queue);
	if (klass != NULL && (rc = qless__check_text(F, "klass", klass)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, qless_queue_name(queue));
	if (klass != NULL)
		qless__args_add(&a, klass);
	return qless__call_str(qless__queue_client(queue), F, "worker.config", &a, out_json, NULL, NULL);
}

int qless_queue_unregister_klass(int *out_removed, qless_queue *queue, const char *klass)
{
	static const char F[] = "qless_queue_unregister_klass";
	qless_args a;
	int rc;

	if (out_removed != NULL)
		*out_removed = 0;
	QLESS_CHECK_NULL(F, queue);
	if ((rc = qless__check_text(F, "klass", klass)) != QLESS_OK)
		return rc;
	qless__args_init(&a);
	qless__args_add(&a, qless_queue_name(queue));
	qless__args_add(&a, klass);
	return flag_call(qless__queue_client(queue), F, "worker.unregister", &a, out_removed);
}
