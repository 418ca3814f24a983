/*
 * cluster.slot: qless__key_slot against the vectors Redis Cluster documents
 * (no server). With a port argument (cluster.keyslot), also against the
 * fixture's CLUSTER KEYSLOT for keys of every shape a namespace key takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

#include "slot.h"

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

static unsigned slot(const char *key)
{
	return qless__key_slot(key, strlen(key));
}

static void vectors(void)
{
	/* CRC16/XMODEM's check value: 0x31C3 for "123456789". */
	CHECK(slot("123456789") == (0x31C3 & 16383), "123456789 -> %u", slot("123456789"));
	CHECK(slot("foo") == 12182, "foo -> %u", slot("foo"));
	CHECK(slot("bar") == 5061, "bar -> %u", slot("bar"));
	CHECK(slot("") == 0, "empty key -> %u", slot(""));
	/* Hash tags: the first {...} that is not empty. */
	CHECK(slot("{user1000}.following") == slot("user1000"), "tag");
	CHECK(slot("{user1000}.followers") == slot("{user1000}.following"), "same tag, same slot");
	/* An empty first tag: the whole key is hashed (values from CLUSTER KEYSLOT). */
	CHECK(slot("foo{}{bar}") == 8363, "foo{}{bar} -> %u", slot("foo{}{bar}"));
	CHECK(slot("{}") == 15257 && slot("a{}") == 6082, "{} -> %u, a{} -> %u", slot("{}"), slot("a{}"));
	CHECK(slot("foo{{bar}}zap") == slot("{bar") && slot("{bar") == 4015, "the tag ends at the first }");
	CHECK(slot("foo{bar}{zap}") == slot("bar"), "only the first tag counts");
	CHECK(slot("{ns}:ql:j:abc") == slot("{ns}:ql:queues"), "namespace keys share a slot");
	CHECK(slot("no{tag") == 8038, "an open tag is no tag: %u", slot("no{tag"));
	/* Bytes above 127 are hashed as unsigned. */
	CHECK(slot("\xff\xfe") == qless__key_slot("\xff\xfe", 2) && slot("\xff") != slot("\x7f"), "high bytes");
}

static void oracle(int port)
{
	redisContext *ctx = redisConnect("127.0.0.1", port);
	char key[64];
	int i, checked = 0;
	if (ctx == NULL || ctx->err) {
		CHECK(0, "cannot connect to 127.0.0.1:%d", port);
		return;
	}
	for (i = 0; i < 2000; i++) {
		redisReply *r;
		size_t len;
		switch (i % 4) {
		case 0: snprintf(key, sizeof key, "{ns%d}:ql:j:%d", i, i * 7919); break;
		case 1: snprintf(key, sizeof key, "key-%d", i); break;
		case 2: snprintf(key, sizeof key, "a{}b{%d}c", i); break;
		default: snprintf(key, sizeof key, "%c%c{x%d", 128 + i % 128, 1 + i % 120, i); break;
		}
		len = strlen(key);
		r = redisCommand(ctx, "CLUSTER KEYSLOT %b", key, len);
		if (r == NULL || r->type != REDIS_REPLY_INTEGER) {
			CHECK(0, "CLUSTER KEYSLOT failed for key %d", i);
			if (r != NULL)
				freeReplyObject(r);
			break;
		}
		CHECK((long long)qless__key_slot(key, len) == r->integer, "key %d: ours %u, Redis %lld", i,
		      qless__key_slot(key, len), r->integer);
		checked++;
		freeReplyObject(r);
	}
	printf("cluster.keyslot: %d keys checked against CLUSTER KEYSLOT\n", checked);
	redisFree(ctx);
}

int main(int argc, char **argv)
{
	vectors();
	if (argc > 1)
		oracle(atoi(argv[1]));
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	else
		printf("ok\n");
	return failures ? 1 : 0;
}
