/* swig/lua.i — Lua 5.4 part of the libqless interface: module name,
 * typemaps, error objects, and a minimal process shim (signals, sleep,
 * release). Everything else is in qless.i; the idiomatic layer is
 * bindings/lua/qless.lua. */
%module qless_core

%{
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <qless/qless.h>

/* Error objects: a table {code=, name=, symbol=, message=} whose metatable
 * (one per code, registered as "qless.<Name>") gives it a __tostring and a
 * class-like __name. Index 0 is the base "Error", used for unknown codes. */
static const char *const qless_lua_error_names[8] = {
	"Error", "InvalidArgument", "NotFound", "LockLost",
	"StateError", "ProtocolError", "ConnectionError", "OutOfMemory" };
static const char *const qless_lua_error_metatables[8] = {
	"qless.Error", "qless.InvalidArgument", "qless.NotFound", "qless.LockLost",
	"qless.StateError", "qless.ProtocolError", "qless.ConnectionError", "qless.OutOfMemory" };

static int qless_lua_error_index(int code)
{
	return (code < 0 && code > -8) ? -code : 0;
}

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

/* Pushes a new error object for code with message (copied). */
static void qless_lua_push_error_message(lua_State *L, int code, const char *message)
{
	int i = qless_lua_error_index(code);
	lua_createtable(L, 0, 4);
	lua_pushstring(L, message ? message : "");
	lua_setfield(L, -2, "message");
	lua_pushinteger(L, code);
	lua_setfield(L, -2, "code");
	lua_pushstring(L, qless_lua_error_names[i]);
	lua_setfield(L, -2, "name");
	lua_pushstring(L, qless_error_name(code));
	lua_setfield(L, -2, "symbol");
	luaL_setmetatable(L, qless_lua_error_metatables[i]);
}

/* The library's message is borrowed until the next libqless call, so it is
 * copied into the Lua table before anything else (qless_error_name) runs. */
static void qless_lua_push_error(lua_State *L, int code)
{
	qless_lua_push_error_message(L, code, qless_error_last_message());
}

/* qless_core.new_error(code, message): lets the Lua layer raise errors of
 * the same classes (e.g. InvalidArgument for data it cannot encode). */
static int qless_lua_new_error(lua_State *L)
{
	int code = (int)luaL_checkinteger(L, 1);
	const char *message = luaL_optstring(L, 2, "");
	qless_lua_push_error_message(L, code, message);
	return 1;
}

/* qless_core.error_classes(): {Name = metatable, ...} to recognise errors. */
static int qless_lua_error_classes(lua_State *L)
{
	int i;
	lua_createtable(L, 0, 8);
	for (i = 0; i < 8; i++) {
		luaL_getmetatable(L, qless_lua_error_metatables[i]);
		lua_setfield(L, -2, qless_lua_error_names[i]);
	}
	return 1;
}

/* qless_core.release(handle): frees a handle now instead of at garbage
 * collection. Needed for the heartbeater (its thread must stop as soon as
 * the job returns) and useful for clients and event subscriptions (they
 * hold connections). The proxy is left pointing at NULL, which every
 * libqless function treats as an invalid handle. */
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

/* ---- signal shim ----
 * Lua's standard library has no signals and no sleep, and os.execute("sleep")
 * would run a shell that ignores SIGINT/SIGQUIT in the waiting parent. The
 * worker needs exactly three things: a flag set by SIGTERM/SIGINT that its
 * loop polls between jobs, an immediate exit on SIGQUIT, and a sleep that a
 * signal cuts short. C handlers only set a sig_atomic_t or call _exit, both
 * async-signal-safe; no Lua code ever runs from a handler. */
static volatile sig_atomic_t qless_lua_signal_seen[65];

static void qless_lua_signal_flag(int sig)
{
	if (sig > 0 && sig < 65)
		qless_lua_signal_seen[sig] = 1;
}

static void qless_lua_signal_exit(int sig)
{
	_exit(128 + sig);
}
%}

%init %{
{
	int i;
	for (i = 0; i < 8; i++) {
		luaL_newmetatable(L, qless_lua_error_metatables[i]);   /* also sets __name */
		lua_pushcfunction(L, qless_lua_error_tostring);
		lua_setfield(L, -2, "__tostring");
		lua_pop(L, 1);
	}
}
%}

%native(new_error) int qless_lua_new_error(lua_State *L);
%native(error_classes) int qless_lua_error_classes(lua_State *L);
%native(release) int qless_lua_release(lua_State *L);

/* ---- integers stay integers ----
 * SWIG 4.1 pushes every C number with lua_pushnumber (1 becomes 1.0 in
 * Lua 5.4); results and inputs of integer type use Lua integers instead. */
%typemap(out) int, short, long, long long, unsigned int, unsigned short, unsigned long,
              unsigned long long, signed char, unsigned char, size_t, int64_t, uint64_t
%{ lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; %}
%typemap(in, checkfn="lua_isnumber") int, short, long, long long, int64_t
%{ {
	int isint = 0;
	lua_Integer v = lua_tointegerx(L, $input, &isint);
	if (!isint) { SWIG_Lua_pushferrstring(L, "Error in $symname (arg %d), expected an integer", $input); SWIG_fail; }
	$1 = ($1_ltype)v;
} %}
%typemap(in, checkfn="lua_isnumber") unsigned int, unsigned long, unsigned long long, size_t, uint64_t
%{ {
	int isint = 0;
	lua_Integer v = lua_tointegerx(L, $input, &isint);
	if (!isint || v < 0) { SWIG_Lua_pushferrstring(L, "Error in $symname (arg %d), expected a non-negative integer", $input); SWIG_fail; }
	$1 = ($1_ltype)v;
} %}

%typemap(out) int QLESS_PLAIN_OUT %{ lua_pushinteger(L, (lua_Integer)$1); SWIG_arg++; %}
/* A negative status raises the error object (lua_error at SWIG's fail
 * label, after the freearg cleanup); success adds no return value. */
%typemap(out) int QLESS_STATUS_OUT %{ if ($1 < 0) { qless_lua_push_error(L, $1); SWIG_fail; } %}

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

/* nil -> (NULL, 0); a table of strings, even empty -> a non-NULL array.
 * The pointers stay valid during the call: the table (an argument, so on
 * the stack) references the strings. Only real strings are accepted, since
 * converting a number would make a temporary string nothing references. */
%typemap(in) (const char *const *QLESS_STRV, size_t QLESS_STRC) (const char **tmp = NULL) %{
	if (lua_isnoneornil(L, $input)) {
		$1 = NULL; $2 = 0;
	} else if (!lua_istable(L, $input)) {
		SWIG_Lua_pushferrstring(L, "Error in $symname (arg %d), expected a list of strings", $input);
		SWIG_fail;
	} else {
		size_t i, n = (size_t)lua_rawlen(L, $input);
		tmp = (const char **)calloc(n ? n : 1, sizeof *tmp);
		if (!tmp) { lua_pushstring(L, "out of memory"); SWIG_fail; }
		for (i = 0; i < n; i++) {
			int t = lua_rawgeti(L, $input, (lua_Integer)i + 1);
			tmp[i] = lua_tostring(L, -1);
			lua_pop(L, 1);
			if (t != LUA_TSTRING) {
				SWIG_Lua_pushferrstring(L, "Error in $symname (arg %d), item %d is not a string", $input, (int)i + 1);
				SWIG_fail;
			}
		}
		$1 = ($1_ltype)tmp; $2 = n;
	}
%}
%typemap(freearg) (const char *const *QLESS_STRV, size_t QLESS_STRC) %{ free((void *)tmp$argnum); %}

%apply int QLESS_PLAIN_OUT { int qless_lua_signal_install, int qless_lua_signal_pending };
%constant int QLESS_LUA_SIGINT = SIGINT;
%constant int QLESS_LUA_SIGTERM = SIGTERM;
%constant int QLESS_LUA_SIGQUIT = SIGQUIT;

%inline %{
/* Installs a handler for sig: exit_at_once 0 records the signal for
 * qless_lua_signal_pending, 1 ends the process at once (_exit(128+sig)).
 * Returns 0, or -1 for an invalid signal. */
static int qless_lua_signal_install(int sig, int exit_at_once)
{
	struct sigaction sa;
	if (sig <= 0 || sig >= 65)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = exit_at_once ? qless_lua_signal_exit : qless_lua_signal_flag;
	sigemptyset(&sa.sa_mask);
	/* Restart interrupted reads and writes (the Redis connection); sleeps
	 * still return early, which is what the poll loop wants. */
	sa.sa_flags = SA_RESTART;
	return sigaction(sig, &sa, NULL) == 0 ? 0 : -1;
}

/* 1 if sig arrived since the last call (and forgets it), else 0. */
static int qless_lua_signal_pending(int sig)
{
	if (sig <= 0 || sig >= 65 || !qless_lua_signal_seen[sig])
		return 0;
	qless_lua_signal_seen[sig] = 0;
	return 1;
}

/* Sleeps seconds. interruptible: a signal ends the sleep early and the
 * time left is returned; otherwise it sleeps the full time and returns 0. */
static double qless_lua_sleep(double seconds, int interruptible)
{
	struct timespec req, rem;
	if (!(seconds > 0))
		return 0;
	req.tv_sec = (time_t)seconds;
	req.tv_nsec = (long)((seconds - (double)req.tv_sec) * 1e9);
	while (nanosleep(&req, &rem) != 0 && errno == EINTR) {
		if (interruptible)
			return (double)rem.tv_sec + (double)rem.tv_nsec / 1e9;
		req = rem;
	}
	return 0;
}
%}

%include "qless.i"
