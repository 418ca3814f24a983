/*
 * /api/trees/<jid>: a job tree for drawing, from one tree.walk call (at
 * most 200 jobs): each job with its status, ports (with sizes and
 * channels) and aliases, children nested, and the subscribers of the
 * channels those ports link to; terminate and delete.
 */
#include <string.h>
#include "server.h"

#define TREE_MAX_NODES "200"

/* [{"name","size","channels"}] of one direction of a tree.get record. */
static json_t *ports(json_t *rec, const char *dir)
{
	json_t *out = json_array();
	json_t *defs = json_object_get(rec, strcmp(dir, "in") == 0 ? "inports" : "outports");
	json_t *chans = json_object_get(rec, strcmp(dir, "in") == 0 ? "inchannels" : "outchannels");
	json_t *sizes = json_object_get(json_object_get(rec, "sizes"), dir);
	const char *name;
	json_t *v;
	json_object_foreach(defs, name, v) {
		json_t *c = json_object_get(chans, name);
		json_array_append_new(out, json_pack("{s:s, s:I, s:o}", "name", name,
		                                     "size", json_integer_value(json_object_get(sizes, name)),
		                                     "channels", json_is_array(c) ? json_incref(c) : json_array()));
	}
	return out;
}

static json_t *find(json_t *nodes, const char *jid)
{
	size_t i;
	json_t *n;
	json_array_foreach(nodes, i, n) if (strcmp(json_string_value(json_object_get(n, "jid")), jid) == 0) return n;
	return NULL;
}

/* The node of rec with its children nested (depth bounded by the walk's size). */
static json_t *node(json_t *nodes, json_t *rec, const char *name, int depth)
{
	json_t *aliases = json_object_get(rec, "aliases");
	json_t *out = json_pack("{s:O, s:O, s:O, s:O, s:s?, s:o, s:{s:o, s:o}, s:o, s:O}",
	                        "jid", json_object_get(rec, "jid"), "klass", json_object_get(rec, "klass"),
	                        "queue", json_object_get(rec, "queue"), "status", json_object_get(rec, "state"),
	                        "name", name, "children", json_array(), "ports", "in", ports(rec, "in"), "out",
	                        ports(rec, "out"), "aliases", json_is_array(aliases) ? json_incref(aliases) : json_array(),
	                        "record", rec);
	if (out == NULL)
		return json_object();
	json_t *kids = json_object_get(out, "children");
	const char *kname;
	json_t *kjid;
	json_object_foreach(json_object_get(rec, "children"), kname, kjid) {
		json_t *k = json_is_string(kjid) ? find(nodes, json_string_value(kjid)) : NULL;
		if (k != NULL && depth < 200)
			json_array_append_new(kids, node(nodes, k, kname, depth + 1));
		else if (json_is_string(kjid))
			json_array_append_new(kids, json_pack("{s:s, s:O, s:n, s:[]}", "name", kname, "jid", kjid, "status",
			                                      "children"));   /* beyond the drawn part */
	}
	return out;
}

/* [{"channel","total","jobs":[{"jid","port"}]}] from tree.walk (whose empty
 * lists arrive as {}). */
static json_t *subscribers(json_t *walk)
{
	json_t *out = json_array();
	json_t *list = json_object_get(walk, "subscribers");
	size_t i;
	json_t *c;
	json_array_foreach(list, i, c) {
		json_t *jobs = json_object_get(c, "jobs");
		json_t *row = json_pack("{s:O?, s:O?, s:o}", "channel", json_object_get(c, "channel"), "total",
		                        json_object_get(c, "total"), "jobs", json_is_array(jobs) ? json_incref(jobs) : json_array());
		if (row != NULL)
			json_array_append_new(out, row);
	}
	return out;
}

json_t *api_tree(web_req *r)
{
	json_t *walk = web_call_json(r, "tree.walk", r->seg[0], TREE_MAX_NODES, NULL);
	if (walk == NULL)
		return NULL;
	json_t *nodes = json_object_get(walk, "nodes");
	if (!json_is_array(nodes) || json_array_size(nodes) == 0) {
		json_decref(walk);
		return web_fail(r, 404, "no job tree %s", r->seg[0]);
	}
	json_t *root = json_array_get(nodes, 0);
	json_t *name = json_object_get(root, "name");
	json_t *out = node(nodes, root, json_is_string(name) ? json_string_value(name) : NULL, 0);
	json_object_set(out, "truncated", json_object_get(walk, "truncated"));
	json_t *state = json_object_get(walk, "state");
	json_object_set_new(out, "state", json_is_object(state) ? json_incref(state) : json_object());
	json_object_set_new(out, "subscribers", subscribers(walk));
	json_object_set_new(out, "channels_truncated", json_boolean(json_is_true(json_object_get(walk, "channels_truncated"))));
	json_decref(walk);
	return out;
}

static json_t *ok_reply(json_t *v)
{
	if (v == NULL)
		return NULL;
	json_decref(v);
	return json_pack("{s:b}", "ok", 1);
}

/* Body {"recursive": true}: the job and every descendant. */
json_t *api_tree_terminate(web_req *r)
{
	json_t *body = web_body(r);
	if (body == NULL)
		return NULL;
	int recursive = json_is_true(json_object_get(body, "recursive"));
	json_decref(body);
	return ok_reply(web_call_json(r, "job.terminate", r->seg[0], recursive ? "recursive" : NULL, NULL));
}

json_t *api_tree_delete(web_req *r)
{
	return ok_reply(web_call_json(r, "job.delete", r->seg[0], NULL));
}
