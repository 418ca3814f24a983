// The JSON API under /api/: requests, the session (CSRF token, role) and
// the error every failed request becomes.

import { enc } from './dom.js';

// Filled from /api/session at start; read-only until then.
export const session = { csrf: '', user: '', role: 'read', read_only: true };

export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

export async function request(method, path, body) {
  const opts = { method: method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (method === 'POST') {
    opts.headers['Content-Type'] = 'application/json';
    opts.headers['X-CSRF-Token'] = session.csrf;
    opts.body = JSON.stringify(body || {});
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError('cannot reach the qless web server (' + e.message + ')', 0);
  }
  const text = await res.text();
  let payload = null;
  if (text) {
    try { payload = JSON.parse(text); } catch (e) {
      if (res.ok) throw new ApiError(path + ': the answer is not JSON', res.status);
    }
  }
  if (res.status === 401 && path !== '/api/session') {
    // The session ended (expired, or the server restarted): log in again.
    location.assign('/login');
  }
  if (!res.ok) {
    const msg = payload && payload.error ? payload.error : res.status + ' ' + res.statusText;
    throw new ApiError(msg, res.status);
  }
  return payload;
}

export const get = (path) => request('GET', path);
export const post = (path, body) => request('POST', path, body);

export function qs(params) {
  const parts = [];
  for (const key of Object.keys(params)) {
    const v = params[key];
    if (v === undefined || v === null || v === '') continue;
    parts.push(enc(key) + '=' + enc(v));
  }
  return parts.length ? '?' + parts.join('&') : '';
}

export function canWrite() { return !session.read_only && session.role === 'admin'; }
