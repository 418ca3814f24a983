/* /api/search: jid (exact), prefix, tag, class, queue, worker, state,
 * combinable; one protocol call per page (the `search` command looks at a
 * bounded number of candidates and hands back a cursor). */
#include <stdio.h>
#include <string.h>
#include "server.h"

static const char *const FILTERS[] = { "jid", "prefix", "tag", "class", "queue", "worker", "state", NULL };

json_t *api_search(web_req *r)
{
	int64_t offset, limit;
	if (web_page(&offset, &limit, r) != 0)
		return NULL;
	const char *cursor = web_param(r, "cursor");
	if (r->status)
		return NULL;
	char l[32];
	snprintf(l, sizeof l, "%lld", (long long)limit);
	const char *argv[3 + 2 * 7] = { cursor ? cursor : "", l, "1000" };
	size_t argc = 3;
	for (int i = 0; FILTERS[i]; i++) {
		const char *v = web_param(r, FILTERS[i]);
		if (r->status)
			return NULL;
		if (v != NULL && v[0] != '\0') {
			argv[argc++] = FILTERS[i];
			argv[argc++] = v;
		}
	}
	if (argc == 3)
		return web_fail(r, 400, "give at least one of jid, prefix, tag, class, queue, worker, state");
	char *text = NULL;
	if (web_call(&text, r, "search", argv, argc) != QLESS_OK)
		return NULL;
	json_t *v = text ? json_loads(text, 0, NULL) : NULL;
	qless_free(text);
	if (!json_is_object(v)) {
		json_decref(v);
		return web_fail(r, 500, "search: unexpected reply");
	}
	json_t *total = json_object_get(v, "total"), *next = json_object_get(v, "next");
	json_t *out = web_list(json_is_integer(total) ? json_incref(total) : NULL, offset, limit,
	                       web_summaries_fix(json_object_get(v, "jobs")),
	                       json_is_string(next) ? json_incref(next) : NULL);
	json_decref(v);
	return out;
}
