/*
 * The HTTP layer of qless web from C, without a server: escapes, routes,
 * the loopback rule and password hashes. Exit status 1 on the first
 * failed check (each names itself).
 */
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

static int failures;

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                           \
		}                                                             \
	} while (0)

static void test_unescape(void)
{
	char a[] = "%41b%2Fc+d";
	CHECK(web_unescape(a, 0) == 0 && strcmp(a, "Ab/c+d") == 0);
	char b[] = "x+y%20z";
	CHECK(web_unescape(b, 1) == 0 && strcmp(b, "x y z") == 0);
	char c[] = "%zz", d[] = "%4", e[] = "a%00b", f[] = "%";
	CHECK(web_unescape(c, 0) == -1);
	CHECK(web_unescape(d, 0) == -1);
	CHECK(web_unescape(e, 0) == -1);   /* a NUL would cut the name short */
	CHECK(web_unescape(f, 0) == -1);
}

static web_route_result route(web_req *r, const char *method, const char *path, web_handler *fn, int *mutating)
{
	memset(r, 0, sizeof *r);
	r->method = method;
	r->path = path;
	return web_route(fn, mutating, r);
}

static void free_segments(web_req *r)
{
	for (int i = 0; i < WEB_MAX_SEGMENTS; i++)
		free(r->seg[i]);
}

static void test_routes(void)
{
	web_req r;
	web_handler fn = NULL;
	int mutating = -1;
	CHECK(route(&r, "GET", "/api/queues", &fn, &mutating) == WEB_ROUTE_FOUND && fn == api_queues && mutating == 0);
	free_segments(&r);
	CHECK(route(&r, "GET", "/api/queues/a%2Fb/jobs", &fn, &mutating) == WEB_ROUTE_FOUND && fn == api_queue_jobs);
	CHECK(r.seg[0] != NULL && strcmp(r.seg[0], "a/b") == 0);
	free_segments(&r);
	CHECK(route(&r, "POST", "/api/jobs/j1/retry", &fn, &mutating) == WEB_ROUTE_FOUND && fn == api_job_retry &&
	      mutating == 1 && strcmp(r.seg[0], "j1") == 0);
	free_segments(&r);
	CHECK(route(&r, "GET", "/api/queues/q/pause", &fn, &mutating) == WEB_ROUTE_METHOD);
	free_segments(&r);
	CHECK(route(&r, "POST", "/api/queues", &fn, &mutating) == WEB_ROUTE_METHOD);
	free_segments(&r);
	CHECK(route(&r, "GET", "/api/nope", &fn, &mutating) == WEB_ROUTE_NONE);
	CHECK(route(&r, "POST", "/api/jobs//retry", &fn, &mutating) == WEB_ROUTE_NONE);
	CHECK(route(&r, "GET", "/api/jobs/%zz", &fn, &mutating) == WEB_ROUTE_NONE);
	CHECK(route(&r, "GET", "/api/queues/", &fn, &mutating) == WEB_ROUTE_NONE);
	CHECK(route(&r, "GET", "/api/queues/q/jobs/extra", &fn, &mutating) == WEB_ROUTE_NONE);
	free_segments(&r);
}

static void test_loopback_rule(void)
{
	const char *refused[] = { "0.0.0.0:0", "[::]:0", "192.0.2.7:0", "10.0.0.1:5678" };
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		web_options o = { 0 };
		o.listen = refused[i];
		char err[512] = "";
		CHECK(web_serve(&o, err, sizeof err) == 2);
		CHECK(strstr(err, "--auth-file") != NULL && strstr(err, "loopback") != NULL);
	}
	const char *bad[] = { "localhost:80", "127.0.0.1", "127.0.0.1:70000", ":80", "127.0.0.1:8x" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		web_options o = { 0 };
		o.listen = bad[i];
		char err[512] = "";
		CHECK(web_serve(&o, err, sizeof err) == 2 && strstr(err, "--listen") != NULL);
	}
	web_options o = { 0 };
	o.auth_file = "/nonexistent/users";
	char err[512] = "";
	CHECK(web_serve(&o, err, sizeof err) == 2 && strstr(err, "cannot open") != NULL);
}

static void test_password_hash(void)
{
	char *h = NULL, err[256] = "";
	CHECK(web_hash_password(&h, "correct horse", err, sizeof err) == 0);
	CHECK(h != NULL && strncmp(h, "$y$", 3) == 0 && strstr(h, "correct") == NULL);
	if (h != NULL) {
		struct crypt_data *d = calloc(1, sizeof *d);
		CHECK(strcmp(crypt_r("correct horse", h, d), h) == 0);
		CHECK(strcmp(crypt_r("wrong horse", h, d), h) != 0);
		free(d);
	}
	free(h);
	h = NULL;
	CHECK(web_hash_password(&h, "", err, sizeof err) == -1 && h == NULL && strstr(err, "empty") != NULL);
}

int main(void)
{
	test_unescape();
	test_routes();
	test_loopback_rule();
	test_password_hash();
	if (failures == 0)
		printf("web http unit: all checks passed\n");
	return failures ? 1 : 0;
}
