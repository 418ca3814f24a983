/* /api/trees/<jid>: a job tree as tree.get records it; terminate, delete. */
#include "server.h"

json_t *api_tree(web_req *r)
{
	json_t *tree = web_call_json(r, "tree.get", r->seg[0], NULL);
	if (tree != NULL && json_is_null(tree)) {
		json_decref(tree);
		return web_fail(r, 404, "no job tree %s", r->seg[0]);
	}
	return tree;
}

static json_t *ok_reply(json_t *v)
{
	if (v == NULL)
		return NULL;
	json_decref(v);
	return json_pack("{s:b}", "ok", 1);
}

json_t *api_tree_terminate(web_req *r)
{
	return ok_reply(web_call_json(r, "job.terminate", r->seg[0], "graceful", NULL));
}

json_t *api_tree_delete(web_req *r)
{
	return ok_reply(web_call_json(r, "job.delete", r->seg[0], NULL));
}
