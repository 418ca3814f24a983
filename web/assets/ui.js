// What every page is built from: messages, action buttons, tables, the
// pager, and the hooks through which pages ask for a redraw.
import { el, fmtTime, fmtValue, enc, link, jobLink, queueLink, workerLink, stateBadge, tagList } from './dom.js';
import { ApiError, get, qs } from './api.js';

export const PAGE_SIZES = [25, 100, 500];

// What the open page wants to hear from the event stream (set by app.js
// from what the page asked for once it is drawn).
export const live = { onCounts: null, onJob: null };
// Set by app.js: redraw.render() draws the page again, redraw.soft() after
// a live event; overview.last hands the Queues page's overview to the header.
export const redraw = { render: () => {}, soft: () => {} };
export const overview = { last: null };

export function showError(err) {
  const box = document.getElementById('error');
  document.getElementById('error-text').textContent =
    err && err.message ? err.message : String(err);
  box.classList.remove('hidden');
}
export function hideError() { document.getElementById('error').classList.add('hidden'); }

let noticeTimer = null;
export function notice(text) {
  const box = document.getElementById('notice');
  box.textContent = text;
  box.classList.remove('hidden');
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => box.classList.add('hidden'), 4000);
}

// A button that runs fn, shows what happened and redraws the page. With
// confirm set, the first click only arms it (no native dialog to block on).
export function actionButton(label, fn, opts) {
  opts = opts || {};
  const btn = el('button', { type: 'button', class: 'action ' + (opts.class || ''), text: label,
    'data-action': opts.name || label.toLowerCase() });
  let armed = null;
  btn.addEventListener('click', async () => {
    if (opts.confirm && !armed) {
      btn.textContent = 'Really ' + label.toLowerCase() + '?';
      btn.classList.add('confirming');
      armed = setTimeout(() => {
        armed = null; btn.textContent = label; btn.classList.remove('confirming');
      }, 5000);
      return;
    }
    clearTimeout(armed); armed = null;
    btn.disabled = true;
    try {
      const result = await fn();
      hideError();
      notice(opts.done ? opts.done(result) : label + ': done');
      if (opts.after) opts.after(result); else redraw.render();
    } catch (e) {
      showError(e);
      btn.disabled = false;
      btn.textContent = label;
      btn.classList.remove('confirming');
    }
  });
  return btn;
}

// An input with a button: the button posts what the input holds.
export function inputAction(label, placeholder, fn, opts) {
  opts = opts || {};
  const input = el('input', { type: opts.type || 'text', placeholder: placeholder,
    value: opts.value, class: 'small', 'data-input': opts.name || label.toLowerCase() });
  const btn = actionButton(label, () => {
    const v = input.value.trim();
    if (v === '') throw new ApiError(label + ': enter a value first', 400);
    return fn(v);
  }, opts);
  input.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') btn.click(); });
  return el('span', { class: 'input-action' }, input, btn);
}

export function table(columns, rows, props) {
  const head = el('tr', null, columns.map((c) => el('th', { text: c.title, class: c.class })));
  const body = el('tbody');
  for (const row of rows) {
    const tr = el('tr', row.__props || null);
    for (const c of columns) {
      const cell = c.render ? c.render(row) : fmtValue(row[c.key]);
      tr.appendChild(el('td', Object.assign({ class: c.class }, c.cellProps ? c.cellProps(row) : {}), cell));
    }
    body.appendChild(tr);
  }
  if (!rows.length) {
    body.appendChild(el('tr', { class: 'empty' },
      el('td', { colspan: columns.length, text: (props && props.empty) || 'Nothing here.' })));
  }
  return el('table', Object.assign({ class: 'grid' }, props && props.attrs), el('thead', null, head), body);
}

export const JOB_COLUMNS = [
  { title: 'jid', render: (j) => jobLink(j.jid) },
  { title: 'class', key: 'klass' },
  { title: 'queue', render: (j) => queueLink(j.queue) },
  { title: 'state', render: (j) => stateBadge(j.state) },
  { title: 'priority', key: 'priority', class: 'num' },
  { title: 'worker', render: (j) => workerLink(j.worker) },
  { title: 'tags', render: (j) => tagList(j.tags) },
  { title: 'expires', render: (j) => fmtTime(j.expires) },
  { title: 'retries', class: 'num', render: (j) =>
    j.retries === undefined ? '—' : String(j.remaining) + '/' + String(j.retries) },
  { title: 'failure', render: (j) => j.failure
    ? el('span', { class: 'failure', title: j.failure.message || '' },
      link('#/failed/' + enc(j.failure.group), j.failure.group)) : '' },
];

// The summaries an endpoint answers may be objects or bare jids.
export function asJobs(items) {
  return (items || []).map((j) => (typeof j === 'string' ? { jid: j } : j));
}

// Reads the page position from the hash query (so pages are linkable)
// and draws first/prev/next/last buttons that rewrite it.
export function pageParams(query) {
  let limit = parseInt(query.get('limit') || '25', 10);
  if (!PAGE_SIZES.includes(limit)) limit = 25;
  let offset = parseInt(query.get('offset') || '0', 10);
  if (!(offset >= 0)) offset = 0;
  return { offset: offset, limit: limit, cursor: query.get('cursor') || '' };
}

// Cursors seen this session, by list and offset: a list paged by cursor
// (search) cannot jump to an offset, so "prev" goes back to a cursor it
// was given on the way forward.
const cursors = new Map();

function isCursor(next) {
  return typeof next === 'string' && !/^[0-9]+$/.test(next);
}

export function pager(route, query, resp) {
  const offset = Number(resp.offset || 0);
  const limit = Number(resp.limit || pageParams(query).limit);
  const count = (resp.items || []).length;
  const total = resp.total === null || resp.total === undefined ? null : Number(resp.total);
  const byCursor = isCursor(resp.next) || !!query.get('cursor');
  const listKey = (() => {
    const q = new URLSearchParams(query);
    q.delete('cursor'); q.delete('offset');
    return route + '?' + q.toString();
  })();
  const go = (changes) => {
    const q = new URLSearchParams(query);
    q.delete('cursor');
    for (const k of Object.keys(changes)) {
      if (changes[k] !== null && changes[k] !== undefined && changes[k] !== '') q.set(k, String(changes[k]));
      else q.delete(k);
    }
    location.hash = route + '?' + q.toString();
  };
  const hasNext = byCursor || total === null ? resp.next !== null && resp.next !== undefined
    : offset + count < total;
  const nextChanges = () => {
    if (!isCursor(resp.next)) return { offset: offset + limit };
    cursors.set(listKey + '#' + (offset + limit), resp.next);
    return { offset: offset + limit, cursor: resp.next };
  };
  const prevOffset = Math.max(0, offset - limit);
  const prevCursor = prevOffset > 0 ? cursors.get(listKey + '#' + prevOffset) : undefined;
  const canPrev = offset > 0 && (!byCursor || prevOffset === 0 || prevCursor !== undefined);
  const btn = (label, enabled, changes, name) => el('button', {
    type: 'button', class: 'page-btn', text: label, disabled: !enabled, 'data-page-btn': name,
    onclick: () => go(typeof changes === 'function' ? changes() : changes),
  });
  const lastOffset = total !== null && total > 0 ? Math.floor((total - 1) / limit) * limit : 0;
  const sizes = el('select', { 'data-page-size': '1', onchange: (ev) => go({ limit: ev.target.value, offset: 0 }) },
    PAGE_SIZES.map((n) => el('option', { value: String(n), text: n + ' per page', selected: n === limit })));
  const from = count ? offset + 1 : 0;
  const summary = el('span', { class: 'page-info', 'data-offset': String(offset),
    'data-total': total === null ? '' : String(total),
    text: count ? from + '–' + (offset + count) + (total !== null ? ' of ' + total : '') : (total ? 'past the end (' + total + ')' : 'none') });
  return el('div', { class: 'pager' },
    btn('« first', offset > 0, { offset: 0 }, 'first'),
    btn('‹ prev', canPrev, { offset: prevOffset, cursor: prevCursor }, 'prev'),
    summary,
    btn('next ›', hasNext, nextChanges, 'next'),
    total !== null && !byCursor ? btn('last »', offset < lastOffset, { offset: lastOffset }, 'last') : null,
    sizes);
}

// GET path with the page's paging, then the pager and the job table.
export async function pagedJobs(route, query, path, extra) {
  const p = pageParams(query);
  const resp = await get(path + qs(Object.assign({}, extra || {},
    { offset: p.offset, limit: p.limit, cursor: p.cursor })));
  const items = asJobs(resp.items || resp.jobs || []);
  return el('div', { class: 'paged' },
    pager(route, query, Object.assign({}, resp, { items: items })),
    table(JOB_COLUMNS, items, { empty: 'No jobs.', attrs: { 'data-list': 'jobs' } }));
}

export function keyValueTable(obj, keyTitle, empty, name) {
  const rows = Object.keys(obj || {}).sort().map((k) => ({ key: k, value: obj[k] }));
  return table([
    { title: keyTitle, render: (r) => el('code', { text: r.key }) },
    { title: 'value', render: (r) => typeof r.value === 'object' && r.value !== null
      ? el('pre', { class: 'data', text: JSON.stringify(r.value, null, 2) }) : fmtValue(r.value) },
  ], rows, { empty: empty, attrs: { 'data-list': name } });
}

// A tree job's ports from tree.get's record fields (inports, inchannels,
