/* swig/lua.i — Lua 5.4 typemaps, error objects, worker hooks and the few
 * natives the layer (bindings/lua) needs; everything else is in qless.i. */
%module qless_core

%{
#define QLESS_SWIG_WORKER_ERROR "LuaError"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <qless/qless.h>

static int qless_lua_error_tostring(lua_State *L)
{
	const char *name, *message;
	lua_getfield(L, 1, "name");
	lua_getfield(L, 1, "message");
	name = lua_tostring(L, -2);
	message = lua_tostring(L, -1);
	lua_pushfstring(L, "qless.%s: %s", name ? name : "Error", message ? message : "");
	return 1;
}

/* Error objects: tables {code=, name=, symbol=, message=} whose metatable
 * (pushed here, made on first use) is the registry's "qless.<Name>", one per
 * row of qless_swig_errors (row 0 for unknown codes). */
static void qless_lua_error_metatable(lua_State *L, int row)
{
	if (luaL_newmetatable(L, lua_pushfstring(L, "qless.%s", qless_swig_errors[row].klass))) {
		lua_pushcfunction(L, qless_lua_error_tostring);   /* luaL_newmetatable set __name */
		lua_setfield(L, -2, "__tostring");
	}
	lua_remove(L, -2);
}

/* message is copied before anything else (qless_error_name) runs: the
 * library's own is borrowed until the next libqless call. */
static void qless_lua_push_error_message(lua_State *L, int code, const char *message)
{
	int i = qless_swig_error_index(code);
	lua_createtable(L, 0, 4);
	lua_pushstring(L, message ? message : "");
	lua_setfield(L, -2, "message");
	lua_pushinteger(L, code);
	lua_setfield(L, -2, "code");
	lua_pushstring(L, qless_swig_errors[i].klass);
	lua_setfield(L, -2, "name");
	lua_pushstring(L, qless_error_name(code));
	lua_setfield(L, -2, "symbol");
	qless_lua_error_metatable(L, i);
	lua_setmetatable(L, -2);
}

/* The n strings of the table at index into out (the table keeps them
 * alive): 0, or the number of the first item that is not a string. */
static int qless_lua_strv(lua_State *L, int index, const char **out, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		int t = lua_rawgeti(L, index, (lua_Integer)i + 1);
		out[i] = lua_tostring(L, -1);
		lua_pop(L, 1);
		if (t != LUA_TSTRING)
			return (int)i + 1;
	}
	return 0;
}

/* Options (a table, or nil) at index into *opts. Returns -1 with the error
 * pushed: InvalidArgument for an unknown name or a value out of range, a
 * plain message (as SWIG's own checks) for a wrong type. A lone string is
 * a one-item list (the Lua API always took tags = "x"). */
static int qless_lua_options(lua_State *L, int index, const struct qless_swig_optspec *spec, void *opts,
                             struct qless_swig_lists *lists)
{
	char msg[256];
	memcpy(opts, spec->defaults, spec->size);
	if (lua_isnoneornil(L, index))
		return 0;
	if (!lua_istable(L, index)) {
		lua_pushfstring(L, "%s must be a table", spec->what);
		return -1;
	}
	lua_pushnil(L);
	while (lua_next(L, index)) {
		const struct qless_swig_field *f;
		struct qless_swig_value v = { NULL, NULL, 0, 0, 0 };
		const char **items;
		int t = lua_type(L, -1), ok = 1, isnum, bad;
		if (lua_type(L, -2) != LUA_TSTRING) {
			lua_pop(L, 2);
			lua_pushfstring(L, "%s: option names must be strings", spec->what);
			return -1;
		}
		if (!(f = qless_swig_field_find(spec, lua_tostring(L, -2)))) {
			qless_swig_unknown_message(msg, sizeof msg, spec, lua_tostring(L, -2));
			lua_pop(L, 2);
			qless_lua_push_error_message(L, QLESS_EINVAL, msg);
			return -1;
		}
		switch (f->kind) {
		case QLESS_SWIG_STR:
			ok = t == LUA_TSTRING && (v.s = lua_tostring(L, -1));
			break;
		case QLESS_SWIG_STRV:
			v.n = t == LUA_TSTRING ? 1 : t == LUA_TTABLE ? (size_t)lua_rawlen(L, -1) : 0;
			if (!(ok = t == LUA_TSTRING || t == LUA_TTABLE))
				break;
			if (!(items = qless_swig_lists_alloc(lists, v.n))) {
				lua_pop(L, 2);
				qless_lua_push_error_message(L, QLESS_ENOMEM, "out of memory");
				return -1;
			}
			if (t == LUA_TSTRING)
				items[0] = lua_tostring(L, -1);
			else if ((bad = qless_lua_strv(L, -1, items, v.n))) {
				lua_pop(L, 2);
				lua_pushfstring(L, "%s: option '%s' item %d is not a string", spec->what, f->name, bad);
				return -1;
			}
			v.v = items;
			break;
		case QLESS_SWIG_DOUBLE:
			ok = t == LUA_TNUMBER;
			v.d = lua_tonumber(L, -1);
			break;
		case QLESS_SWIG_INT:
			v.i = (long long)lua_tointegerx(L, -1, &isnum);
			ok = t == LUA_TNUMBER && isnum;
			break;
		}
		if (!ok) {
			qless_swig_type_message(msg, sizeof msg, spec, f);
			lua_pop(L, 2);
			lua_pushstring(L, msg);
			return -1;
		}
		if (qless_swig_field_set(spec, opts, f, &v, msg, sizeof msg) < 0) {
			lua_pop(L, 2);
			qless_lua_push_error_message(L, QLESS_EINVAL, msg);
			return -1;
		}
		lua_pop(L, 1);
	}
	return 0;
}

/* new_error(code, message): the layer's errors are of the same classes. */
static int qless_lua_new_error(lua_State *L)
{
	int code = (int)luaL_checkinteger(L, 1);
	const char *message = luaL_optstring(L, 2, "");
	qless_lua_push_error_message(L, code, message);
	return 1;
}

static int qless_lua_error_classes(lua_State *L)
{
	int i;
	lua_createtable(L, 0, QLESS_SWIG_NERRORS);
	for (i = 0; i < QLESS_SWIG_NERRORS; i++) {
		qless_lua_error_metatable(L, i);
		lua_setfield(L, -2, qless_swig_errors[i].klass);
	}
	return 1;
}

/* release(handle): frees a handle (a connection) before collection; the
 * proxy keeps NULL, an invalid handle to every libqless function. */
static int qless_lua_release(lua_State *L)
{
	swig_lua_userdata *usr;
	swig_lua_class *clss;
	if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1))
		return luaL_argerror(L, 1, "expected a qless handle");
	lua_getfield(L, -1, ".type");   /* present in SWIG class metatables only */
	if (lua_isnil(L, -1))
		return luaL_argerror(L, 1, "expected a qless handle");
	lua_pop(L, 2);
	usr = (swig_lua_userdata *)lua_touserdata(L, 1);
	clss = (swig_lua_class *)usr->type->clientdata;
	if (usr->own && usr->ptr && clss && clss->destructor)
		clss->destructor(usr->ptr);
	usr->own = 0;
	usr->ptr = NULL;
	return 0;
}

/* time(): os.time with sub-second precision. */
static int qless_lua_time(lua_State *L)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	lua_pushnumber(L, (lua_Number)ts.tv_sec + (lua_Number)ts.tv_nsec / 1e9);
	return 1;
}

/* sleep(seconds): the full time, even when a signal (the engine's SIGTERM
 * handler) arrives, so job code runs as it would without one. */
static int qless_lua_sleep(lua_State *L)
{
	double seconds = luaL_checknumber(L, 1);
	struct timespec req, rem;
	if (seconds > 0) {
		req.tv_sec = (time_t)seconds;
		req.tv_nsec = (long)((seconds - (double)req.tv_sec) * 1e9);
		while (nanosleep(&req, &rem) != 0 && errno == EINTR)
			req = rem;
	}
	return 0;
}
%}


%native(new_error) int qless_lua_new_error(lua_State *L);
%native(error_classes) int qless_lua_error_classes(lua_State *L);
%native(release) int qless_lua_release(lua_State *L);

/* SWIG 4.1 pushes every C number as a float (1.0): integers stay integers. */
%typemap(out) int, short, long, long long, unsigned int, unsigned short, unsigned long,
              unsigned long long, signed char, unsigned char, size_t, int64_t, uint64_t
%{ lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; %}
%define QLESS_LUA_INTEGER_IN(MIN, WHAT) %{ {
	int isint = 0;
	lua_Integer v = lua_tointegerx(L, $input, &isint);
	if (!isint || v < MIN) { SWIG_Lua_pushferrstring(L, "Error in $symname (arg %d), expected %s", $input, WHAT); SWIG_fail; }
	$1 = ($1_ltype)v;
} %}
%enddef
%typemap(in, checkfn="lua_isnumber") int, short, long, long long, int64_t QLESS_LUA_INTEGER_IN(LUA_MININTEGER, "an integer")
%typemap(in, checkfn="lua_isnumber") unsigned int, unsigned long, unsigned long long, size_t, uint64_t
QLESS_LUA_INTEGER_IN(0, "a non-negative integer")

%typemap(out) int QLESS_PLAIN_OUT %{ lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; %}
/* A negative status raises the error object (at SWIG's fail label, after freearg). */
%typemap(out) int QLESS_STATUS_OUT %{ if ($1 < 0) { qless_lua_push_error_message(L, $1, qless_error_last_message()); SWIG_fail; } %}

/* Owned handle out-parameter -> proxy that frees it when collected. */
%typemap(in, numinputs=0) SWIGTYPE **QLESS_OUT_HANDLE ($*1_ltype tmp = NULL) %{ $1 = &tmp; %}
%typemap(argout) SWIGTYPE **QLESS_OUT_HANDLE %{
	if (tmp$argnum) SWIG_NewPointerObj(L, (void *)tmp$argnum, $*1_descriptor, 1); else lua_pushnil(L);
	SWIG_arg++;
%}

/* Owned string out-parameter -> Lua string (copied), then freed. */
%typemap(in, numinputs=0) char **QLESS_OUT_STRING (char *tmp = NULL) %{ $1 = &tmp; %}
%typemap(argout) char **QLESS_OUT_STRING %{
	if (tmp$argnum) lua_pushstring(L, tmp$argnum); else lua_pushnil(L);
	SWIG_arg++;
%}
%typemap(freearg) char **QLESS_OUT_STRING %{ qless_free(tmp$argnum); %}

%typemap(in, numinputs=0) int64_t *QLESS_OUT_INT (int64_t tmp = 0) %{ $1 = &tmp; %}
%typemap(argout) int64_t *QLESS_OUT_INT %{ lua_pushinteger(L, (lua_Integer)tmp$argnum); SWIG_arg++; %}
%typemap(in, numinputs=0) double *QLESS_OUT_DOUBLE (double tmp = 0) %{ $1 = &tmp; %}
%typemap(argout) double *QLESS_OUT_DOUBLE %{ lua_pushnumber(L, tmp$argnum); SWIG_arg++; %}
%typemap(in, numinputs=0) int *QLESS_OUT_FLAG (int tmp = 0) %{ $1 = &tmp; %}
%typemap(argout) int *QLESS_OUT_FLAG %{ lua_pushboolean(L, tmp$argnum); SWIG_arg++; %}
%typemap(in, numinputs=0) char QLESS_OUT_BUF[ANY] (char tmp[$1_dim0]) %{ tmp[0] = '\0'; $1 = tmp; %}
%typemap(argout) char QLESS_OUT_BUF[ANY] %{ lua_pushstring(L, tmp$argnum); SWIG_arg++; %}

/* nil -> (NULL, 0); a table of strings, even empty -> a non-NULL array whose
 * strings the table (on the stack) keeps alive: so no numbers, whose
 * converted string nothing would reference. */
%typemap(in) (const char *const *QLESS_STRV, size_t QLESS_STRC) (const char **tmp = NULL) %{
	if (lua_isnoneornil(L, $input)) {
		$1 = NULL; $2 = 0;
	} else if (!lua_istable(L, $input)) {
		SWIG_Lua_pushferrstring(L, "Error in $symname (arg %d), expected a list of strings", $input);
		SWIG_fail;
	} else {
		size_t n = (size_t)lua_rawlen(L, $input);
		int bad;
		tmp = (const char **)calloc(n ? n : 1, sizeof *tmp);
		if (!tmp) { lua_pushstring(L, "out of memory"); SWIG_fail; }
		if ((bad = qless_lua_strv(L, $input, tmp, n))) {
			SWIG_Lua_pushferrstring(L, "Error in $symname (arg %d), item %d is not a string", $input, bad);
			SWIG_fail;
		}
		$1 = ($1_ltype)tmp; $2 = n;
	}
%}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) %{ free((void *)tmp$argnum); %}

%typemap(in) const SWIGTYPE *QLESS_OPTIONS ($*1_ltype opts, struct qless_swig_lists lists = { { NULL }, 0 }) %{
	if (qless_lua_options(L, $input, QLESS_SWIG_OPTSPEC(&opts), &opts, &lists) < 0) SWIG_fail;
	$1 = &opts;
%}
%typemap(freearg) const SWIGTYPE *QLESS_OPTIONS %{ qless_swig_lists_free(&lists$argnum); %}

/* The engine is reached through worker_main only (C callbacks). */
%native(worker_main) int qless_lua_worker_main(lua_State *L);
%native(schedule_listen) int qless_lua_schedule_listen(lua_State *L);
%native(time) int qless_lua_time(lua_State *L);
int getpid(void);   /* unistd.h's; pool children differ */
%native(sleep) int qless_lua_sleep(lua_State *L);
%include "qless.i"

/* Lua's hooks of the trampoline (swig/worker.i): run(job, client, phase) is
 * qless.worker.run, entered only from the thread that called worker_main
 * (single_threaded: no --pool threads) or its forked pool child. */
%{
struct qless_swig_worker {
	lua_State *L;   /* the thread that called worker_main */
	int run_ref;    /* LUA_REGISTRYINDEX reference to run */
};

static void qless_swig_lang_enter(struct qless_swig_call *call)
{
	qless_swig_call_run(call);
}

/* The message handler, so the traceback is the job code's. group: the
 * error's `name` or metatable __name, else LuaError; retried when
 * retryable = true. */
static int qless_lua_describe_error(lua_State *L)
{
	struct qless_swig_call *call = (struct qless_swig_call *)lua_touserdata(L, lua_upvalueindex(1));
	const char *group = NULL;
	int retry = 0;
	lua_settop(L, 1);
	if (lua_type(L, 1) == LUA_TTABLE) {
		if (lua_getfield(L, 1, "name") == LUA_TSTRING && lua_rawlen(L, -1) > 0)
			group = lua_tostring(L, -1);                                   /* 2 */
		else if (luaL_getmetafield(L, 1, "__name") == LUA_TSTRING)
			group = lua_tostring(L, -1);                                   /* 2 or 3 */
		lua_getfield(L, 1, "retryable");
		retry = lua_type(L, -1) == LUA_TBOOLEAN && lua_toboolean(L, -1);
		lua_pop(L, 1);
	}
	if (!group)
		group = "LuaError";
	/* A table without __tostring shows as "Name: message", not "table: 0x..". */
	if (lua_type(L, 1) == LUA_TTABLE && luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL &&
	    lua_getfield(L, 1, "message") != LUA_TNIL) {
		lua_pushfstring(L, "%s: %s", group, luaL_tolstring(L, -1, NULL));
	} else {
		luaL_tolstring(L, 1, NULL);
	}
	luaL_traceback(L, L, lua_tostring(L, -1), 1);
	qless_swig_call_outcome(call, retry, group, lua_tostring(L, -1));
	return 1;
}

/* Job code that kept a borrowed proxy gets an invalid handle, not freed memory. */
static void qless_lua_detach(lua_State *L, int index)
{
	swig_lua_userdata *usr = (swig_lua_userdata *)lua_touserdata(L, index);
	if (usr) {
		usr->own = 0;
		usr->ptr = NULL;
	}
}

/* Under lua_pcall: everything that may raise (allocating the proxies) is. */
static int qless_lua_call_body(lua_State *L)
{
	struct qless_swig_call *call = (struct qless_swig_call *)lua_touserdata(L, 1);
	int rc;
	lua_settop(L, 0);
	lua_pushlightuserdata(L, call);
	lua_pushcclosure(L, qless_lua_describe_error, 1);                           /* 1 */
	SWIG_NewPointerObj(L, call->job, SWIGTYPE_p_qless_job, 0);                   /* 2 */
	SWIG_NewPointerObj(L, qless_job_client(call->job), SWIGTYPE_p_qless_client, 0); /* 3 */
	lua_rawgeti(L, LUA_REGISTRYINDEX, call->worker->run_ref);
	lua_pushvalue(L, 2);
	lua_pushvalue(L, 3);
	lua_pushstring(L, qless_swig_phase_names[call->phase]);
	rc = lua_pcall(L, 3, 0, 1);
	qless_lua_detach(L, 2);
	qless_lua_detach(L, 3);
	lua_pushboolean(L, rc == LUA_OK);
	return 1;
}

static int qless_swig_lang_call(struct qless_swig_call *call)
{
	lua_State *L = call->worker->L;
	int top = lua_gettop(L), ok = 0;
	if (!lua_checkstack(L, 3)) {
		qless_swig_call_outcome(call, 0, "LuaError", "Lua stack overflow: the job could not run");
		return -1;
	}
	lua_pushcfunction(L, qless_lua_call_body);
	lua_pushlightuserdata(L, call);
	if (lua_pcall(L, 1, 1, 0) == LUA_OK)
		ok = lua_toboolean(L, -1);
	else if (!call->outcome)   /* only the glue failed (e.g. out of memory making a proxy) */
		qless_swig_call_outcome(call, 0, "LuaError", lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "Lua error");
	lua_settop(L, top);
	return ok ? 0 : -1;
}

/* The message handler described it already. */
static void qless_swig_lang_describe(struct qless_swig_call *call)
{
	(void)call;
}

/* fork(2): the child keeps a copy of the lua_State. */
static int qless_swig_lang_fork(struct qless_swig_worker *w)
{
	(void)w;
	return (int)fork();
}

/* The n strings tree[field] (a list; a hole or false is NULL) into an
 * array pushed as userdata; each string is also stored in the table at
 * `keep`, which outlives the run, since the engine keeps the pointers. */
static const char **qless_lua_strings(lua_State *L, int tree, const char *field, size_t n, int keep)
{
	const char **out = (const char **)lua_newuserdatauv(L, (n + 1) * sizeof *out, 0);
	size_t i;
	lua_getfield(L, tree, field);
	if (!lua_isnil(L, -1) && !lua_istable(L, -1))
		luaL_error(L, "worker_main: tree.%s must be a table", field);
	for (i = 0; i < n; i++) {
		int t = lua_istable(L, -1) ? lua_rawgeti(L, -1, (lua_Integer)i + 1) : (lua_pushnil(L), LUA_TNIL);
		if (t != LUA_TSTRING && t != LUA_TNIL && !(t == LUA_TBOOLEAN && !lua_toboolean(L, -1)))
			luaL_error(L, "worker_main: tree.%s[%d] is not a string", field, (int)i + 1);
		out[i] = t == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
		lua_rawseti(L, keep, (lua_Integer)lua_rawlen(L, keep) + 1);
	}
	out[n] = NULL;
	lua_pop(L, 1);
	return out;
}

/* The tree classes of tree (at index tree: {klasses = {...}, configs =
 * {...}}) into *klasses and *configs, their strings kept in the table at
 * keep; returns their number. */
static size_t qless_lua_tree(lua_State *L, int tree, int keep, const char ***klasses, const char ***configs)
{
	size_t ntree, i;
	lua_getfield(L, tree, "klasses");
	ntree = lua_istable(L, -1) ? (size_t)lua_rawlen(L, -1) : 0;
	lua_pop(L, 1);
	*klasses = qless_lua_strings(L, tree, "klasses", ntree, keep);
	*configs = qless_lua_strings(L, tree, "configs", ntree, keep);
	for (i = 0; i < ntree; i++)
		if (!(*klasses)[i])
			luaL_error(L, "worker_main: tree.klasses[%d] is not a string", (int)i + 1);
	return ntree;
}

/* qless_core.worker_main(args, run[, tree]) -> exit status. args follows
 * Lua's global `arg`: args[0] the program name (optional), args[1..n] the
 * flags, all strings. tree: {klasses = {...}, configs = {...}}
 * (configs[i]: JSON text, or false for none) names the tree classes. */
static int qless_lua_worker_main(lua_State *L)
{
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_swig_worker worker;
	const char **argv, **klasses = NULL, **configs = NULL;
	lua_Integer i, n;
	size_t ntree = 0;
	int status;
	luaL_checktype(L, 1, LUA_TTABLE);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	if (!lua_isnoneornil(L, 3))
		luaL_checktype(L, 3, LUA_TTABLE);
	lua_settop(L, 3);
	n = (lua_Integer)lua_rawlen(L, 1);
	/* The strings are copied into a table only this call sees (index 4):
	 * job code may change the caller's table (often the global `arg`), and
	 * the engine keeps pointers into argv while it runs. */
	lua_createtable(L, (int)n + 1, 0);
	argv = (const char **)lua_newuserdatauv(L, ((size_t)n + 2) * sizeof *argv, 0);   /* 5 */
	if (lua_rawgeti(L, 1, 0) != LUA_TSTRING) {
		lua_pop(L, 1);
		lua_pushliteral(L, "qless-worker");
	}
	for (i = 0; i <= n; i++) {
		if (i > 0 && lua_rawgeti(L, 1, i) != LUA_TSTRING)
			return luaL_error(L, "worker_main: args[%d] is not a string", (int)i);
		argv[i] = lua_tostring(L, -1);
		lua_rawseti(L, 4, i + 1);
	}
	argv[n + 1] = NULL;
	if (lua_istable(L, 3))
		ntree = qless_lua_tree(L, 3, 4, &klasses, &configs);
	lua_pushvalue(L, 2);
	worker.L = L;
	worker.run_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	run.single_threaded = 1;   /* one lua_State must not be entered from two threads */
	status = qless_swig_worker_run(&worker, &run, argv, (size_t)n + 1, klasses, ntree, configs, ntree);
	luaL_unref(L, LUA_REGISTRYINDEX, worker.run_ref);
	lua_pushinteger(L, status);
	return 1;
}
%}

%{
/* qless_core.schedule_listen(schedule, run, opts[, tree]) -> exit status:
 * the schedule's listen (qless_swig_worker_listen), opts a table of listen
 * options (qless.i: size, pool, interval, max_jobs, allow, signals); run
 * and tree as for worker_main. */
static int qless_lua_schedule_listen(lua_State *L)
{
	qless_worker_run_options run = QLESS_WORKER_RUN_OPTIONS_INIT;
	struct qless_swig_worker worker;
	struct qless_swig_lists lists = { { NULL }, 0 };
	qless_listen_options opts;
	const char **klasses = NULL, **configs = NULL;
	void *schedule = NULL;
	size_t ntree = 0;
	int status;
	if (!SWIG_IsOK(SWIG_ConvertPtr(L, 1, &schedule, SWIGTYPE_p_qless_schedule, 0)) || !schedule)
		return luaL_error(L, "schedule_listen: schedule must be a live Schedule");
	luaL_checktype(L, 2, LUA_TFUNCTION);
	if (!lua_isnoneornil(L, 4))
		luaL_checktype(L, 4, LUA_TTABLE);
	lua_settop(L, 4);
	lua_newtable(L);   /* 5: the tree's strings, which the engine keeps */
	if (lua_istable(L, 4))
		ntree = qless_lua_tree(L, 4, 5, &klasses, &configs);
	/* Last: nothing raises from here on, so the lists cannot leak. */
	if (qless_lua_options(L, 3, QLESS_SWIG_OPTSPEC(&opts), &opts, &lists) < 0) {
		qless_swig_lists_free(&lists);
		return lua_error(L);
	}
	lua_pushvalue(L, 2);
	worker.L = L;
	worker.run_ref = luaL_ref(L, LUA_REGISTRYINDEX);
	run.single_threaded = 1;   /* one lua_State must not be entered from two threads */
	status = qless_swig_worker_listen(&worker, &run, (qless_schedule *)schedule, &opts, klasses, ntree, configs, ntree);
	luaL_unref(L, LUA_REGISTRYINDEX, worker.run_ref);
	qless_swig_lists_free(&lists);
	lua_pushinteger(L, status);
	return 1;
}
%}
