/*
 * Users and sessions. The auth file holds `user:role:hash` lines (role
 * read or admin; hash a crypt(3) string: yescrypt `$y$`, scrypt `$7$`,
 * bcrypt `$2b$`), checked with libcrypt's crypt_r. A browser logs in with
 * the form (POST /login) and gets a random session cookie; an API client
 * may send HTTP Basic instead. Passwords are never logged nor kept.
 */
#include <crypt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server.h"

#define MAX_SESSIONS 1024
#define SESSION_SECONDS (12 * 3600)

typedef struct user {
	char *name;
	int admin;
	char *hash;
	char csrf[65];   /* the token of this user's HTTP Basic requests */
} user;

typedef struct session {
	char token[65];
	char csrf[65];
	int user;        /* index into users; -1: free slot */
	time_t expires;
} session;

struct web_auth {
	user *users;
	size_t nusers;
	pthread_mutex_t lock;
	session sessions[MAX_SESSIONS];
};

void web_auth_free(web_auth *auth)
{
	if (auth == NULL)
		return;
	for (size_t i = 0; i < auth->nusers; i++) {
		free(auth->users[i].name);
		free(auth->users[i].hash);
	}
	free(auth->users);
	pthread_mutex_destroy(&auth->lock);
	free(auth);
}

int web_auth_load(web_auth **out, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		snprintf(err, errlen, "--auth-file %s: cannot open it", path);
		return -1;
	}
	web_auth *a = calloc(1, sizeof *a);
	if (a == NULL) {
		fclose(f);
		return -1;
	}
	pthread_mutex_init(&a->lock, NULL);
	for (int i = 0; i < MAX_SESSIONS; i++)
		a->sessions[i].user = -1;
	char line[1024];
	int lineno = 0, bad = 0;
	while (!bad && fgets(line, sizeof line, f) != NULL) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0' || line[0] == '#')
			continue;
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c1 == NULL || c2 == NULL || c1 == line) {
			snprintf(err, errlen, "--auth-file %s line %d: expected user:role:hash", path, lineno);
			bad = 1;
			break;
		}
		*c1 = *c2 = '\0';
		const char *role = c1 + 1, *hash = c2 + 1;
		if (strcmp(role, "admin") != 0 && strcmp(role, "read") != 0) {
			snprintf(err, errlen, "--auth-file %s line %d: role must be read or admin, not '%.40s'", path,
			         lineno, role);
			bad = 1;
			break;
		}
		if (hash[0] != '$' || strlen(hash) < 13) {
			snprintf(err, errlen, "--auth-file %s line %d: the hash must be a crypt(3) string "
			         "(make one with `qless web hash-password`)", path, lineno);
			bad = 1;
			break;
		}
		user *u = realloc(a->users, (a->nusers + 1) * sizeof *u);
		if (u == NULL) {
			bad = 1;
			break;
		}
		a->users = u;
		u = &a->users[a->nusers++];
		u->name = strdup(line);
		u->hash = strdup(hash);
		u->admin = strcmp(role, "admin") == 0;
		web_random_hex(u->csrf);
	}
	fclose(f);
	if (!bad && a->nusers == 0) {
		snprintf(err, errlen, "--auth-file %s: no users in it", path);
		bad = 1;
	}
	if (bad) {
		web_auth_free(a);
		return -1;
	}
	*out = a;
	return 0;
}

/* The user index whose password this is, or -1. */
static int check_password(web_auth *auth, const char *name, const char *password)
{
	for (size_t i = 0; i < auth->nusers; i++) {
		if (strcmp(auth->users[i].name, name) != 0)
			continue;
		struct crypt_data *data = calloc(1, sizeof *data);
		if (data == NULL)
			return -1;
		const char *h = crypt_r(password, auth->users[i].hash, data);
		int ok = h != NULL && h[0] != '*' && web_secret_equal(h, auth->users[i].hash);
		explicit_bzero(data, sizeof *data);
		free(data);
		return ok ? (int)i : -1;
	}
	return -1;
}

char *web_auth_login(web_auth *auth, const char *name, const char *password)
{
	int u = check_password(auth, name, password);
	if (u < 0)
		return NULL;
	time_t now = time(NULL);
	pthread_mutex_lock(&auth->lock);
	int slot = 0;
	for (int i = 0; i < MAX_SESSIONS; i++) {
		if (auth->sessions[i].user < 0 || auth->sessions[i].expires < now) {
			slot = i;
			break;
		}
		if (auth->sessions[i].expires < auth->sessions[slot].expires)
			slot = i;   /* all taken: the oldest goes */
	}
	session *s = &auth->sessions[slot];
	web_random_hex(s->token);
	web_random_hex(s->csrf);
	s->user = u;
	s->expires = now + SESSION_SECONDS;
	char *token = strdup(s->token);
	pthread_mutex_unlock(&auth->lock);
	return token;
}

static session *find_session(web_auth *auth, const char *token)
{
	time_t now = time(NULL);
	for (int i = 0; i < MAX_SESSIONS; i++) {
		session *s = &auth->sessions[i];
		if (s->user >= 0 && s->expires >= now && web_secret_equal(s->token, token))
			return s;
	}
	return NULL;
}

int web_auth_principal(const char **name, int *admin, const char **csrf, web_auth *auth,
                       struct MHD_Connection *conn)
{
	const char *token = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "qless_session");
	if (token != NULL) {
		pthread_mutex_lock(&auth->lock);
		session *s = find_session(auth, token);
		if (s != NULL) {
			user *u = &auth->users[s->user];
			*name = u->name;
			*admin = u->admin;
			*csrf = s->csrf;   /* stays valid: a slot is reused only after 12 hours or 1024 newer logins */
		}
		pthread_mutex_unlock(&auth->lock);
		if (s != NULL)
			return 1;
	}
	char *password = NULL;
	char *basic = MHD_basic_auth_get_username_password(conn, &password);
	int u = -1;
	if (basic != NULL && password != NULL)
		u = check_password(auth, basic, password);
	if (password != NULL) {
		explicit_bzero(password, strlen(password));
		MHD_free(password);
	}
	if (basic != NULL)
		MHD_free(basic);
	if (u < 0)
		return 0;
	*name = auth->users[u].name;
	*admin = auth->users[u].admin;
	*csrf = auth->users[u].csrf;
	return 1;
}

void web_auth_logout(web_auth *auth, struct MHD_Connection *conn)
{
	const char *token = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "qless_session");
	if (token == NULL)
		return;
	pthread_mutex_lock(&auth->lock);
	session *s = find_session(auth, token);
	if (s != NULL)
		s->user = -1;
	pthread_mutex_unlock(&auth->lock);
}

int web_hash_password(char **out, const char *password, char *err, size_t errlen)
{
	if (password == NULL || password[0] == '\0') {
		snprintf(err, errlen, "the password is empty");
		return -1;
	}
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	if (crypt_gensalt_rn(NULL, 0, NULL, 0, salt, sizeof salt) == NULL) {
		snprintf(err, errlen, "cannot make a salt (libcrypt)");
		return -1;
	}
	struct crypt_data *data = calloc(1, sizeof *data);
	if (data == NULL)
		return -1;
	const char *h = crypt_r(password, salt, data);
	int ok = h != NULL && h[0] != '*';
	*out = ok ? strdup(h) : NULL;
	explicit_bzero(data, sizeof *data);
	free(data);
	if (!ok || *out == NULL) {
		snprintf(err, errlen, "libcrypt could not hash the password");
		return -1;
	}
	return 0;
}
