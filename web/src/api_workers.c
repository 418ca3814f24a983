/* /api/workers, /api/tracked and /api/config. */
#include <stdio.h>
#include "server.h"

json_t *api_workers(web_req *r)
{
	json_t *workers = web_call_json(r, "workers", NULL);
	if (workers == NULL)
		return NULL;
	json_t *items = json_array();
	size_t i;
	json_t *w;
	if (json_is_array(workers))
		json_array_foreach(workers, i, w) json_array_append_new(items, json_pack("{s:O, s:O, s:O}", "name",
		        json_object_get(w, "name"), "jobs", json_object_get(w, "jobs"), "stalled", json_object_get(w, "stalled")));
	json_decref(workers);
	size_t n = json_array_size(items);
	return web_list(json_integer((json_int_t)n), 0, (int64_t)n, items, NULL);
}

json_t *api_worker(web_req *r)
{
	json_t *page = web_call_json(r, "worker.page", r->seg[0], "500", NULL);
	if (page == NULL)
		return NULL;
	json_t *out = json_pack("{s:s, s:o, s:o}", "name", r->seg[0], "jobs", web_summaries_fix(json_object_get(page, "jobs")),
	                        "stalled", web_summaries_fix(json_object_get(page, "stalled")));
	json_decref(page);
	return out;
}

json_t *api_tracked(web_req *r)
{
	return web_page_of(r, "tracked.page", NULL);
}

json_t *api_config(web_req *r)
{
	json_t *config = web_call_json(r, "config.get", NULL);
	if (config != NULL && !json_is_object(config)) {
		json_decref(config);
		config = json_object();
	}
	return config;
}
