// The qless dashboard: one page, hash routes, the JSON API under /api/,
// live updates from /api/events. This module routes and starts; the pages
// live in page-*.js, their parts in ui.js, dom.js and api.js.
import { el, append, clear } from './dom.js';
import { ApiError, session, get, canWrite } from './api.js';
import { showError, hideError, live, redraw, overview } from './ui.js';
import { pageQueues, pageQueue } from './page-queues.js';
import { pageJob } from './page-job.js';
import { pageFailed, pageFailedGroup, pageWorkers, pageWorker, pageTracked, pageRecurring,
  pageSchedules, pageSchedule, pageConfig } from './page-lists.js';
import { pageTree } from './page-tree.js';
import { pageSearch } from './page-search.js';

let renderSeq = 0;
let softTimer = null;

// ---- routing ----------------------------------------------------------------

const ROUTES = [
  [/^\/queues$/, 'queues', pageQueues],
  [/^\/queues\/([^/]+)$/, 'queues', pageQueue, 'queue'],
  [/^\/jobs\/([^/]+)$/, 'jobs', pageJob, 'job'],
  [/^\/failed$/, 'failed', pageFailed],
  [/^\/failed\/([^/]+)$/, 'failed', pageFailedGroup, 'failed-group'],
  [/^\/workers$/, 'workers', pageWorkers],
  [/^\/workers\/([^/]+)$/, 'workers', pageWorker, 'worker'],
  [/^\/tracked$/, 'tracked', pageTracked],
  [/^\/recurring$/, 'recurring', pageRecurring],
  [/^\/schedules$/, 'schedules', pageSchedules],
  [/^\/schedules\/([^/]+)$/, 'schedules', pageSchedule, 'schedule'],
  [/^\/trees\/([^/]+)$/, 'trees', pageTree, 'tree'],
  [/^\/search$/, 'search', pageSearch],
  [/^\/config$/, 'config', pageConfig],
];

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/queues';
  const q = raw.indexOf('?');
  const path = q >= 0 ? raw.slice(0, q) : raw;
  const query = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
  return { path: path, query: query };
}

// Draws the page the hash names. A later navigation wins: an answer that
// arrives after the user moved on is dropped.
async function render(quiet) {
  const seq = ++renderSeq;
  clearTimeout(softTimer);   // a redraw asked for by the page being left
  Object.assign(live, { onCounts: null, onJob: null });
  const view = document.getElementById('view');
  const { path, query } = parseHash();
  const hash = location.hash;
  if (!quiet) view.setAttribute('data-ready', '');
  let page = null, name = 'missing', nav = '', args = [];
  for (const r of ROUTES) {
    const m = r[0].exec(path);
    if (m) {
      page = r[2]; nav = r[1]; name = r[3] || r[1];
      try { args = m.slice(1).map(decodeURIComponent); } catch (e) { page = null; }
      break;
    }
  }
  document.querySelectorAll('#nav a').forEach((a) =>
    a.classList.toggle('active', a.getAttribute('data-nav') === nav));
  let content;
  try {
    if (!page) throw new ApiError('no page at #' + path, 404);
    // What the page wants to hear from the event stream: taken only when it
    // is still the page to show (a page left behind must not keep listening).
    const wants = { onCounts: null, onJob: null };
    content = await page(args, query, wants);
    if (seq !== renderSeq) return;
    Object.assign(live, wants);
    if (!quiet) hideError();
  } catch (e) {
    if (seq !== renderSeq) return;
    showError(e);
    content = [el('h1', { text: 'Cannot show this page' }), el('p', { class: 'muted', 'data-page-error': '1', text: e.message })];
  }
  const scroll = window.scrollY;
  clear(view);
  append(view, content);
  view.setAttribute('data-page', name);
  view.setAttribute('data-hash', hash);
  view.setAttribute('data-ready', String(seq));
  if (quiet) window.scrollTo(0, scroll);
  document.title = 'qless · ' + name;
  refreshBadges(overview.last);
  overview.last = null;
}

// A redraw after a live event: coalesced, and never while the user types.
function softRender() {
  clearTimeout(softTimer);
  softTimer = setTimeout(() => {
    const active = document.activeElement;
    if (active && (active.tagName === 'INPUT' || active.tagName === 'SELECT')) return;
    render(true);
  }, 250);
}

async function refreshBadges(given) {
  try {
    const ov = given || await get('/api/overview');
    const set = (id, n) => { const b = document.getElementById(id); if (b) b.textContent = n ? String(n) : ''; };
    set('nav-failed', ov.failed); set('nav-workers', ov.workers);
    set('nav-tracked', ov.tracked); set('nav-schedules', ov.schedules);
  } catch (e) { /* the page itself reports errors */ }
}

// ---- live updates -------------------------------------------------------

// The header's totals follow job events, at most once every two seconds.
let badgeTimer = null;
function badgesSoon() {
  if (badgeTimer) return;
  badgeTimer = setTimeout(() => { badgeTimer = null; refreshBadges(); }, 2000);
}

function connectEvents() {
  if (!window.EventSource) return;
  const indicator = document.getElementById('live');
  const es = new EventSource('/api/events');
  const state = (on) => {
    indicator.textContent = on ? 'live' : 'offline';
    indicator.classList.toggle('off', !on);
  };
  es.addEventListener('open', () => state(true));
  es.addEventListener('error', () => state(false));
  es.addEventListener('counts', (ev) => {
    let data;
    try { data = JSON.parse(ev.data); } catch (e) { return; }
    const items = Array.isArray(data) ? data : data.items || data.queues || [];
    if (live.onCounts) live.onCounts(items);
  });
  es.addEventListener('job', (ev) => {
    let data;
    try { data = JSON.parse(ev.data); } catch (e) { return; }
    if (live.onJob) live.onJob(data);
    badgesSoon();
  });
}

// ---- start ----------------------------------------------------------------

async function start() {
  document.getElementById('error-close').addEventListener('click', hideError);
  try {
    Object.assign(session, await get('/api/session'));
  } catch (e) {
    // Not logged in (the server has an auth file): its login form.
    if (e.status === 401) { location.assign('/login'); return; }
    showError(e);
  }
  document.body.classList.toggle('read-only', !canWrite());
  document.getElementById('session').textContent =
    (session.user ? session.user + ' · ' : '') + (canWrite() ? session.role : 'read-only');
  // Without an auth file the server's one principal is "local": nobody to log out.
  if (session.user && session.user !== 'local') {
    const out = document.getElementById('logout');
    out.classList.remove('hidden');
    out.addEventListener('click', async () => {
      try {
        await fetch('/logout', { method: 'POST', credentials: 'same-origin',
          headers: { 'X-CSRF-Token': session.csrf } });
      } finally {
        location.assign('/login');
      }
    });
  }
  window.addEventListener('hashchange', () => render());
  if (!location.hash) history.replaceState(null, '', '#/queues');
  connectEvents();
  render();
}

redraw.render = render;
redraw.soft = softRender;
document.addEventListener('DOMContentLoaded', start);
