// The qless dashboard: one page, hash routes, the JSON API under /api/.
// Hand-written against a strict Content-Security-Policy: no inline scripts,
// no style attributes, every node built with the DOM (never innerHTML), so
// job data, names and error messages cannot inject markup.
'use strict';

(function () {
  const STATES = ['waiting', 'running', 'scheduled', 'stalled', 'depends', 'recurring'];
  const COUNT_FIELDS = STATES.concat(['paused', 'max_concurrency']);
  const PAGE_SIZES = [25, 100, 500];

  let session = { csrf: '', user: '', role: 'read', read_only: true };
  let renderSeq = 0;
  // What the open page wants to hear from the event stream.
  let live = { onCounts: null, onJob: null };

  // ---- DOM helpers ------------------------------------------------------

  function el(tag, props) {
    const node = document.createElement(tag);
    setProps(node, props);
    for (let i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  const SVG_NS = 'http://www.w3.org/2000/svg';
  function svg(tag, props) {
    const node = document.createElementNS(SVG_NS, tag);
    setProps(node, props);
    for (let i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function setProps(node, props) {
    if (!props) return;
    for (const key of Object.keys(props)) {
      const value = props[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') node.textContent = String(value);
      else if (key === 'class') node.setAttribute('class', value);
      else if (key.startsWith('on') && typeof value === 'function') {
        node.addEventListener(key.slice(2), value);
      } else if (key === 'value') node.value = value;
      else if (key === 'checked') node.checked = !!value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
  }

  function append(node, kid) {
    if (kid === null || kid === undefined || kid === false) return;
    if (Array.isArray(kid)) { kid.forEach((k) => append(node, k)); return; }
    if (typeof kid === 'string' || typeof kid === 'number') {
      node.appendChild(document.createTextNode(String(kid)));
      return;
    }
    node.appendChild(kid);
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  // ---- formatting --------------------------------------------------------

  function fmtTime(t) {
    if (t === null || t === undefined || t === '' || t === 0) return '—';
    if (typeof t === 'string' && !/^-?[0-9.]+$/.test(t)) return t;
    const n = Number(t);
    if (!isFinite(n) || n <= 0) return '—';
    return new Date(n * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }

  function fmtDur(s) {
    const n = Number(s);
    if (!isFinite(n)) return '—';
    if (n < 1) return (n * 1000).toFixed(0) + ' ms';
    if (n < 120) return n.toFixed(1) + ' s';
    if (n < 7200) return (n / 60).toFixed(1) + ' min';
    if (n < 172800) return (n / 3600).toFixed(1) + ' h';
    return (n / 86400).toFixed(1) + ' d';
  }

  function fmtValue(v) {
    if (v === null || v === undefined) return '—';
    if (typeof v === 'object') return JSON.stringify(v);
    return String(v);
  }

  function enc(s) { return encodeURIComponent(String(s)); }

  function link(hash, text, props) {
    return el('a', Object.assign({ href: hash, text: text }, props || {}));
  }
  function jobLink(jid) { return link('#/jobs/' + enc(jid), jid, { class: 'jid' }); }
  function queueLink(q) { return q ? link('#/queues/' + enc(q), q) : '—'; }
  function workerLink(w) { return w ? link('#/workers/' + enc(w), w) : '—'; }
  function stateBadge(state) {
    return el('span', { class: 'state state-' + String(state || 'unknown'), text: state || '—' });
  }

  // ---- the API -------------------------------------------------------------

  class ApiError extends Error {
    constructor(message, status) { super(message); this.status = status; }
  }

  async function request(method, path, body) {
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

  const get = (path) => request('GET', path);
  const post = (path, body) => request('POST', path, body);

  function qs(params) {
    const parts = [];
    for (const key of Object.keys(params)) {
      const v = params[key];
      if (v === undefined || v === null || v === '') continue;
      parts.push(enc(key) + '=' + enc(v));
    }
    return parts.length ? '?' + parts.join('&') : '';
  }

  function canWrite() { return !session.read_only && session.role === 'admin'; }

  // ---- messages ----------------------------------------------------------

  function showError(err) {
    const box = document.getElementById('error');
    document.getElementById('error-text').textContent =
      err && err.message ? err.message : String(err);
    box.classList.remove('hidden');
  }
  function hideError() { document.getElementById('error').classList.add('hidden'); }

  let noticeTimer = null;
  function notice(text) {
    const box = document.getElementById('notice');
    box.textContent = text;
    box.classList.remove('hidden');
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => box.classList.add('hidden'), 4000);
  }

  // A button that runs fn, shows what happened and redraws the page. With
  // confirm set, the first click only arms it (no native dialog to block on).
  function actionButton(label, fn, opts) {
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
        if (opts.after) opts.after(result); else render();
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
  function inputAction(label, placeholder, fn, opts) {
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

  // ---- tables and paging -------------------------------------------------

  function table(columns, rows, props) {
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

  const JOB_COLUMNS = [
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

  function tagList(tags) {
    if (!tags || !tags.length) return '';
    return el('span', { class: 'tags' },
      tags.map((t) => link('#/search?tag=' + enc(t), t, { class: 'tag' })));
  }

  // The summaries an endpoint answers may be objects or bare jids.
  function asJobs(items) {
    return (items || []).map((j) => (typeof j === 'string' ? { jid: j } : j));
  }

  // Reads the page position from the hash query (so pages are linkable)
  // and draws first/prev/next/last buttons that rewrite it.
  function pageParams(query) {
    let limit = parseInt(query.get('limit') || '25', 10);
    if (!PAGE_SIZES.includes(limit)) limit = 25;
    let offset = parseInt(query.get('offset') || '0', 10);
    if (!(offset >= 0)) offset = 0;
    return { offset: offset, limit: limit, cursor: query.get('cursor') || '' };
  }

  function pager(route, query, resp) {
    const offset = Number(resp.offset || 0);
    const limit = Number(resp.limit || pageParams(query).limit);
    const count = (resp.items || []).length;
    const total = resp.total === null || resp.total === undefined ? null : Number(resp.total);
    const go = (changes) => {
      const q = new URLSearchParams(query);
      q.delete('cursor');
      for (const k of Object.keys(changes)) {
        if (changes[k] === null) q.delete(k); else q.set(k, String(changes[k]));
      }
      location.hash = route + '?' + q.toString();
    };
    const hasNext = total !== null ? offset + count < total : resp.next !== null && resp.next !== undefined;
    const nextChanges = () => {
      if (typeof resp.next === 'string' && !/^[0-9]+$/.test(resp.next)) {
        return { offset: offset + limit, cursor: resp.next };
      }
      return { offset: offset + limit };
    };
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
      btn('‹ prev', offset > 0, { offset: Math.max(0, offset - limit) }, 'prev'),
      summary,
      btn('next ›', hasNext, nextChanges, 'next'),
      total !== null ? btn('last »', offset < lastOffset, { offset: lastOffset }, 'last') : null,
      sizes);
  }

  // GET path with the page's paging, then the pager and the job table.
  async function pagedJobs(route, query, path, extra) {
    const p = pageParams(query);
    const resp = await get(path + qs(Object.assign({}, extra || {},
      { offset: p.offset, limit: p.limit, cursor: p.cursor })));
    const items = asJobs(resp.items || resp.jobs || []);
    return el('div', { class: 'paged' },
      pager(route, query, Object.assign({}, resp, { items: items })),
      table(JOB_COLUMNS, items, { empty: 'No jobs.', attrs: { 'data-list': 'jobs' } }));
  }

  // ---- pages ------------------------------------------------------------------

  function queueRow(q) {
    const cell = (field) => ({ 'data-queue': q.name, 'data-field': field });
    const cells = [
      el('td', null, queueLink(q.name)),
    ];
    for (const s of STATES) cells.push(el('td', Object.assign({ class: 'num' }, cell(s)), String(q[s] || 0)));
    cells.push(el('td', cell('paused'), q.paused ? el('span', { class: 'state state-paused', text: 'paused' }) : ''));
    cells.push(el('td', Object.assign({ class: 'num' }, cell('max_concurrency')),
      q.max_concurrency ? String(q.max_concurrency) : '∞'));
    if (canWrite()) cells.push(el('td', { class: 'cell-actions' }, el('div', { class: 'actions' }, queueActions(q))));
    return el('tr', { 'data-queue-row': q.name }, cells);
  }

  function queueActions(q) {
    const path = '/api/queues/' + enc(q.name);
    return [
      q.paused
        ? actionButton('Unpause', () => post(path + '/unpause'), { name: 'unpause' })
        : actionButton('Pause', () => post(path + '/pause'), { name: 'pause' }),
      inputAction('Set', 'max concurrency', (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) throw new ApiError('max concurrency must be a whole number ≥ 0 (0: no limit)', 400);
        return post(path + '/max-concurrency', { value: n });
      }, { type: 'number', name: 'max-concurrency', value: q.max_concurrency || '' }),
    ];
  }

  function updateCount(name, field, value) {
    const cell = document.querySelector('td[data-queue="' + CSS.escape(name) + '"][data-field="' + field + '"]');
    if (!cell) return false;
    if (field === 'paused') {
      if ((cell.textContent === 'paused') !== !!value) {
        clear(cell);
        if (value) cell.appendChild(el('span', { class: 'state state-paused', text: 'paused' }));
      }
      return true;
    }
    let text;
    if (field === 'max_concurrency') text = value ? String(value) : '∞';
    else text = String(value || 0);
    if (cell.textContent !== text) {
      cell.textContent = text;
      cell.classList.remove('flash');
      void cell.offsetWidth; // restart the highlight animation
      cell.classList.add('flash');
    }
    return true;
  }

  // The Queues page's overview, reused for the header's totals.
  let lastOverview = null;

  async function pageQueues() {
    const ov = await get('/api/overview');
    lastOverview = ov;
    const queues = ov.queues || [];
    const cols = ['queue'].concat(STATES, ['paused', 'max concurrency']);
    if (canWrite()) cols.push('');
    const body = el('tbody', null, queues.map(queueRow));
    const tbl = el('table', { class: 'grid', 'data-list': 'queues' },
      el('thead', null, el('tr', null, cols.map((c) => el('th', { text: c })))), body);
    if (!queues.length) body.appendChild(el('tr', { class: 'empty' }, el('td', { colspan: cols.length, text: 'No queues yet.' })));
    live.onCounts = (items) => {
      for (const q of items) {
        const seen = COUNT_FIELDS.map((f) => updateCount(q.name, f, q[f]));
        if (!seen.some((x) => x)) {
          const empty = body.querySelector('tr.empty');
          if (empty) empty.remove();
          body.appendChild(queueRow(q));
        }
      }
    };
    return [
      el('h1', { text: 'Queues' }),
      el('div', { class: 'overview' },
        summaryCard('failed', ov.failed, '#/failed'),
        summaryCard('workers', ov.workers, '#/workers'),
        summaryCard('tracked', ov.tracked, '#/tracked'),
        summaryCard('schedules', ov.schedules, '#/schedules')),
      tbl,
    ];
  }

  function summaryCard(name, n, hash) {
    return el('a', { class: 'card', href: hash, 'data-summary': name },
      el('span', { class: 'card-n', text: n === undefined || n === null ? '—' : String(n) }),
      el('span', { class: 'card-label', text: name }));
  }

  // qless's histogram: 60 one-second buckets, 59 of a minute, 23 of an
  // hour, then days.
  function bucketLabel(i) {
    if (i < 60) return i + '–' + (i + 1) + ' s';
    if (i < 119) return (i - 59) + '–' + (i - 58) + ' min';
    if (i < 142) return (i - 118) + '–' + (i - 117) + ' h';
    return (i - 141) + '–' + (i - 140) + ' d';
  }

  function histogram(title, h) {
    h = h || {};
    const values = (h.histogram || []).map(Number);
    // Trim the empty tail so short runs are not a sliver at the left.
    let last = values.length - 1;
    while (last > 0 && !values[last]) last--;
    const shown = values.slice(0, Math.max(last + 1, 10));
    const max = Math.max(1, ...shown);
    const barW = 8, height = 90, gap = 1;
    const chart = svg('svg', { class: 'hist', width: shown.length * barW, height: height + 14,
      viewBox: '0 0 ' + shown.length * barW + ' ' + (height + 14), role: 'img', 'aria-label': title + ' histogram' });
    shown.forEach((v, i) => {
      const hgt = v ? Math.max(2, Math.round((v / max) * height)) : 0;
      chart.appendChild(svg('rect', { x: i * barW, y: height - hgt, width: barW - gap, height: hgt, class: 'bar' },
        svg('title', { text: bucketLabel(i) + ': ' + v })));
    });
    chart.appendChild(svg('line', { x1: 0, y1: height + 0.5, x2: shown.length * barW, y2: height + 0.5, class: 'axis' }));
    chart.appendChild(svg('text', { x: 0, y: height + 12, class: 'axis-label', text: bucketLabel(0).split('–')[0] + ' s' }));
    chart.appendChild(svg('text', { x: shown.length * barW, y: height + 12, class: 'axis-label end',
      text: bucketLabel(shown.length - 1).replace(/^[0-9]+–/, '≤ ') }));
    return el('div', { class: 'hist-box', 'data-hist': title },
      el('h3', { text: title }),
      el('p', { class: 'muted', text: 'count ' + (h.count || 0) + ', mean ' + fmtDur(h.mean || 0) + ', std ' + fmtDur(h.std || 0) }),
      chart);
  }

  async function pageQueue(args, query) {
    const name = args[0];
    const route = '#/queues/' + enc(name);
    const state = STATES.includes(query.get('state')) ? query.get('state') : 'waiting';
    const date = query.get('date') || '';
    const info = await get('/api/queues/' + enc(name) + qs({ date: date }));
    const tabs = el('div', { class: 'tabs' }, STATES.map((s) => link(route + '?state=' + s,
      '', { class: 'tab' + (s === state ? ' active' : ''), 'data-tab': s },
    )));
    Array.from(tabs.children).forEach((a, i) => {
      const s = STATES[i];
      append(a, [s + ' ', el('span', { class: 'badge', 'data-queue': name, 'data-field': s, text: String(info[s] || 0) })]);
    });
    live.onCounts = (items) => {
      for (const q of items) {
        if (q.name !== name) continue;
        for (const s of STATES) {
          const b = tabs.querySelector('[data-field="' + s + '"]');
          if (b && b.textContent !== String(q[s] || 0)) { b.textContent = String(q[s] || 0); }
        }
      }
    };
    const list = await pagedJobs(route, query, '/api/queues/' + enc(name) + '/jobs', { state: state });
    const stats = info.stats || {};
    const dateInput = el('input', { type: 'date', value: date || new Date().toISOString().slice(0, 10),
      'data-input': 'date', onchange: (ev) => {
        const q = new URLSearchParams(query); q.set('date', ev.target.value); location.hash = route + '?' + q.toString();
      } });
    const actions = canWrite() ? el('div', { class: 'actions' }, queueActions({ name: name, paused: info.paused, max_concurrency: info.max_concurrency })) : null;
    return [
      el('h1', null, 'Queue ', el('span', { class: 'name', text: name }),
        info.paused ? el('span', { class: 'state state-paused', text: 'paused' }) : ''),
      actions,
      el('section', { class: 'stats' },
        el('div', { class: 'stats-head' }, el('h2', { text: 'Statistics' }), el('label', null, 'day ', dateInput)),
        el('p', { class: 'muted' }, 'failed ' + (stats.failed || 0) + ', failures ' + (stats.failures || 0) +
          ', retries ' + (stats.retries || 0) + (info.max_concurrency ? ', max concurrency ' + info.max_concurrency : '')),
        el('div', { class: 'hists' }, histogram('wait', stats.wait), histogram('run', stats.run))),
      tabs,
      list,
    ];
  }

  function historyEntries(history) {
    return (history || []).map((h) => {
      if (Array.isArray(h)) return Object.assign({ when: h[0], what: h[1] }, h[2] || {});
      return h;
    });
  }

  function jobActions(job) {
    if (!canWrite()) return null;
    const path = '/api/jobs/' + enc(job.jid);
    const out = [];
    if (job.state === 'failed') out.push(actionButton('Retry', () => post(path + '/retry'), { name: 'retry' }));
    if (job.state !== 'complete') {
      out.push(actionButton('Cancel', () => post(path + '/cancel'), { name: 'cancel', confirm: true, class: 'danger',
        after: () => { location.hash = job.queue ? '#/queues/' + enc(job.queue) : '#/queues'; } }));
    }
    out.push(job.tracked
      ? actionButton('Untrack', () => post(path + '/untrack'), { name: 'untrack' })
      : actionButton('Track', () => post(path + '/track'), { name: 'track' }));
    if (job.state === 'running') {
      out.push(actionButton('Time out', () => post(path + '/timeout'), { name: 'timeout', confirm: true }));
    }
    out.push(inputAction('Move', 'queue', (v) => post(path + '/move', { queue: v }), { name: 'move' }));
    out.push(inputAction('Priority', 'priority', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n)) throw new ApiError('priority must be a whole number', 400);
      return post(path + '/priority', { priority: n });
    }, { type: 'number', name: 'priority', value: job.priority }));
    out.push(inputAction('Add tags', 'tag, tag', (v) => post(path + '/tags', {
      add: v.split(',').map((t) => t.trim()).filter((t) => t), remove: [] }), { name: 'add-tags' }));
    return el('div', { class: 'actions job-actions' }, out);
  }

  function jobTags(job) {
    const tags = job.tags || [];
    const path = '/api/jobs/' + enc(job.jid);
    return el('span', { class: 'tags' }, tags.length ? tags.map((t) => el('span', { class: 'tag-box' },
      link('#/search?tag=' + enc(t), t, { class: 'tag' }),
      canWrite() ? actionButton('×', () => post(path + '/tags', { add: [], remove: [t] }),
        { name: 'remove-tag', class: 'link', done: () => 'removed tag ' + t }) : null)) : '—');
  }

  async function pageJob(args) {
    const jid = args[0];
    // Whether it is a tree job: the tree's answer (a 404 for a plain job).
    const [job, tree] = await Promise.all([get('/api/jobs/' + enc(jid)),
      get('/api/trees/' + enc(jid)).catch(() => null)]);
    live.onJob = (ev) => { if (ev.jid === jid) softRender(); };
    const rows = [
      ['jid', job.jid], ['class', job.klass], ['queue', queueLink(job.queue)],
      ['state', el('span', { 'data-job-state': job.state || '' }, stateBadge(job.state))],
      ['priority', String(job.priority === undefined ? '—' : job.priority)],
      ['worker', workerLink(job.worker)], ['expires', fmtTime(job.expires)],
      ['retries', job.retries === undefined ? '—' : job.remaining + ' of ' + job.retries + ' left'],
      ['tags', jobTags(job)], ['tracked', job.tracked ? 'yes' : 'no'],
    ];
    if (tree) rows.push(['job tree', link('#/trees/' + enc(job.jid), 'show the tree', { 'data-tree-link': '1' })]);
    const dl = el('dl', { class: 'facts' }, rows.map((r) => [el('dt', { text: r[0] }), el('dd', null, r[1])]));
    const failure = job.failure ? el('section', { class: 'failure-box' },
      el('h2', null, 'Failed: ', link('#/failed/' + enc(job.failure.group), job.failure.group)),
      el('p', { class: 'muted', text: fmtTime(job.failure.when) + (job.failure.worker ? ' on ' + job.failure.worker : '') }),
      el('pre', { class: 'message', text: job.failure.message || '' })) : null;
    const deps = (list, what) => el('section', { class: 'deps', 'data-deps': what },
      el('h2', { text: what }),
      list && list.length ? el('ul', null, list.map((d) => el('li', null, jobLink(typeof d === 'string' ? d : d.jid)))) : el('p', { class: 'muted', text: 'none' }));
    const history = historyEntries(job.history);
    const timeline = el('ol', { class: 'timeline' }, history.map((h) => {
      const extras = Object.keys(h).filter((k) => k !== 'when' && k !== 'what')
        .map((k) => k + ': ' + fmtValue(h[k])).join(', ');
      return el('li', { class: 'event-' + String(h.what) },
        el('span', { class: 'when', text: fmtTime(h.when) }),
        el('span', { class: 'what', text: String(h.what) }),
        extras ? el('span', { class: 'extras', text: extras }) : null);
    }));
    return [
      el('h1', null, 'Job ', el('span', { class: 'name', text: job.jid })),
      jobActions(job),
      failure,
      el('div', { class: 'cols' },
        el('section', null, el('h2', { text: 'Summary' }), dl),
        el('section', null, el('h2', { text: 'Data' }),
          el('pre', { class: 'data', 'data-job-data': '1', text: JSON.stringify(job.data, null, 2) }))),
      el('div', { class: 'cols' }, deps(job.dependencies, 'dependencies'), deps(job.dependents, 'dependents')),
      el('section', null, el('h2', { text: 'History' }), history.length ? timeline : el('p', { class: 'muted', text: 'no history' })),
    ];
  }

  async function pageFailed() {
    const resp = await get('/api/failed');
    const groups = resp.groups || resp.items || [];
    const cols = [
      { title: 'group', render: (g) => link('#/failed/' + enc(g.group), g.group) },
      { title: 'jobs', class: 'num', key: 'count', cellProps: (g) => ({ 'data-group-count': g.group }) },
    ];
    if (canWrite()) cols.push({ title: '', render: (g) => groupActions(g.group) });
    live.onJob = (ev) => { if (ev.event === 'failed') softRender(); };
    return [el('h1', { text: 'Failed jobs' }),
      table(cols, groups, { empty: 'No failed jobs.', attrs: { 'data-list': 'failed-groups' } })];
  }

  function groupActions(group) {
    const path = '/api/failed/' + enc(group);
    return el('span', { class: 'actions' },
      actionButton('Retry all', () => post(path + '/retry-all'), { name: 'retry-all', confirm: true,
        done: (r) => 'retried ' + (r && r.done) + ' jobs of ' + group }),
      actionButton('Cancel all', () => post(path + '/cancel-all'), { name: 'cancel-all', confirm: true, class: 'danger',
        done: (r) => 'cancelled ' + (r && r.done) + ' jobs of ' + group }));
  }

  async function pageFailedGroup(args, query) {
    const group = args[0];
    const route = '#/failed/' + enc(group);
    return [el('h1', null, 'Failed: ', el('span', { class: 'name', text: group })),
      canWrite() ? groupActions(group) : null,
      await pagedJobs(route, query, '/api/failed/' + enc(group))];
  }

  async function pageWorkers() {
    const resp = await get('/api/workers');
    const cols = [
      { title: 'worker', render: (w) => workerLink(w.name) },
      { title: 'jobs', class: 'num', render: (w) => String(Array.isArray(w.jobs) ? w.jobs.length : w.jobs || 0) },
      { title: 'stalled', class: 'num', render: (w) => String(Array.isArray(w.stalled) ? w.stalled.length : w.stalled || 0) },
    ];
    return [el('h1', { text: 'Workers' }),
      table(cols, resp.items || [], { empty: 'No workers.', attrs: { 'data-list': 'workers' } })];
  }

  async function pageWorker(args) {
    const name = args[0];
    const resp = await get('/api/workers/' + enc(name));
    return [el('h1', null, 'Worker ', el('span', { class: 'name', text: name })),
      el('h2', { text: 'Running' }),
      table(JOB_COLUMNS, asJobs(resp.jobs), { empty: 'No running jobs.', attrs: { 'data-list': 'jobs' } }),
      el('h2', { text: 'Stalled' }),
      table(JOB_COLUMNS, asJobs(resp.stalled), { empty: 'No stalled jobs.', attrs: { 'data-list': 'stalled' } })];
  }

  async function pageTracked(args, query) {
    return [el('h1', { text: 'Tracked jobs' }), await pagedJobs('#/tracked', query, '/api/tracked')];
  }

  async function pageRecurring(args, query) {
    const p = pageParams(query);
    const resp = await get('/api/recurring' + qs({ offset: p.offset, limit: p.limit }));
    const cols = [
      { title: 'jid', render: (r) => jobLink(r.jid) },
      { title: 'class', key: 'klass' },
      { title: 'queue', render: (r) => queueLink(r.queue) },
      { title: 'every', render: (r) => r.cron ? el('code', { text: r.cron }) : fmtDur(r.interval) },
      { title: 'description', key: 'description' },
      { title: 'next', render: (r) => el('ul', { class: 'plain' }, (r.next || []).map((t) => el('li', { text: fmtTime(t) }))) },
    ];
    return [el('h1', { text: 'Recurring jobs' }), pager('#/recurring', query, resp),
      table(cols, resp.items || [], { empty: 'No recurring jobs.', attrs: { 'data-list': 'recurring' } })];
  }

  async function pageSchedules(args, query) {
    const p = pageParams(query);
    const resp = await get('/api/schedules' + qs({ offset: p.offset, limit: p.limit }));
    const cols = [
      { title: 'schedule', render: (s) => link('#/schedules/' + enc(s.name), s.name) },
      { title: 'entries', class: 'num', key: 'entries' },
      { title: 'next run', render: (s) => fmtTime(s.next_run) },
    ];
    return [el('h1', { text: 'Schedules' }), pager('#/schedules', query, resp),
      table(cols, resp.items || [], { empty: 'No schedules.', attrs: { 'data-list': 'schedules' } })];
  }

  async function pageSchedule(args, query) {
    const name = args[0];
    const route = '#/schedules/' + enc(name);
    const p = pageParams(query);
    const resp = await get('/api/schedules/' + enc(name) + qs({ offset: p.offset, limit: p.limit }));
    const entries = resp.entries || resp.items || [];
    const cols = [
      { title: 'id', key: 'id' },
      { title: 'when', render: (e) => e.cron ? el('code', { text: 'cron ' + e.cron })
        : typeof e.when === 'number' ? fmtTime(e.when) : el('code', { text: fmtValue(e.when) }) },
      { title: 'description', key: 'description' },
      { title: 'next run', render: (e) => fmtTime(e.next_run) },
      { title: 'unique jid', render: (e) => e.unique_jid ? jobLink(e.unique_jid) : '—' },
    ];
    return [el('h1', null, 'Schedule ', el('span', { class: 'name', text: name })),
      pager(route, query, Object.assign({ offset: p.offset, limit: p.limit, total: entries.length }, resp, { items: entries })),
      table(cols, entries, { empty: 'No entries.', attrs: { 'data-list': 'entries' } })];
  }

  // The tree as nested boxes: each job a box holding its children's boxes.
  function treeBox(node, depth) {
    const kids = node.children || [];
    return el('div', { class: 'tree-node status-' + String(node.status || 'unknown'), 'data-tree-jid': node.jid || '' },
      el('div', { class: 'tree-head' },
        node.name ? el('span', { class: 'tree-name', text: node.name }) : null,
        node.jid ? link('#/trees/' + enc(node.jid), node.jid, { class: 'jid' }) : null,
        el('span', { class: 'state state-' + String(node.status || 'unknown'), text: node.status || '—' }),
        node.jid ? link('#/jobs/' + enc(node.jid), 'job', { class: 'muted' }) : null),
      kids.length ? el('div', { class: 'tree-children' }, kids.map((k) => treeBox(k, depth + 1))) : null);
  }

  function portTable(ports, dir) {
    const cols = [
      { title: dir + ' port', key: 'name' },
      { title: 'queued', class: 'num', render: (p) => String(p.size || 0) },
      { title: 'channels', render: (p) => (p.channels || []).join(', ') || '—' },
    ];
    return table(cols, ports || [], { empty: 'No ' + dir + 'put ports.', attrs: { 'data-list': 'ports-' + dir } });
  }

  function keyValueTable(obj, keyTitle, empty, name) {
    const rows = Object.keys(obj || {}).sort().map((k) => ({ key: k, value: obj[k] }));
    return table([
      { title: keyTitle, render: (r) => el('code', { text: r.key }) },
      { title: 'value', render: (r) => typeof r.value === 'object' && r.value !== null
        ? el('pre', { class: 'data', text: JSON.stringify(r.value, null, 2) }) : fmtValue(r.value) },
    ], rows, { empty: empty, attrs: { 'data-list': name } });
  }

  // A tree job's ports from tree.get's record fields (inports, inchannels,
  // sizes.in, and the same for out).
  function portsOf(t, dir) {
    const defs = t[dir + 'ports'] || {}, chans = t[dir + 'channels'] || {};
    const sizes = (t.sizes || {})[dir] || {};
    const names = Array.from(new Set(Object.keys(defs).concat(Object.keys(sizes)))).sort();
    return names.map((n) => ({ name: n, size: sizes[n] || 0, channels: chans[n] || [] }));
  }

  const MAX_TREE_NODES = 200;

  // /api/trees/<jid> in the contract's shape (children drawn recursively
  // with their status, ports as lists). An answer in tree.get's record shape
  // (children as name -> jid) is read too: each descendant is then one more
  // request, at most MAX_TREE_NODES of them.
  async function loadTree(jid) {
    let budget = MAX_TREE_NODES;
    async function norm(t, name) {
      const out = Object.assign({}, t);
      if (name !== undefined) out.name = name;
      // tree.get's record names the job's status `state`; the contract's
      // `state` is the job's JSON state (an object).
      out.status = t.status || (typeof t.state === 'string' ? t.state : undefined);
      if (typeof t.state !== 'object' || t.state === null) out.state = {};
      if (!t.ports && (t.inports || t.outports || t.sizes)) out.ports = { in: portsOf(t, 'in'), out: portsOf(t, 'out') };
      if (!Array.isArray(t.aliases)) out.aliases = [];
      if (Array.isArray(t.children)) {
        out.children = await Promise.all(t.children.map((c) => norm(c)));
      } else if (t.children && typeof t.children === 'object') {
        out.children = await Promise.all(Object.keys(t.children).sort().map(async (n) => {
          const child = t.children[n];
          if (--budget < 0) return { name: n, jid: child, status: 'not drawn' };
          try { return await norm(await get('/api/trees/' + enc(child)), n); } catch (e) {
            return { name: n, jid: child, status: e.status === 404 ? 'missing' : 'error' };
          }
        }));
      } else {
        out.children = [];
      }
      return out;
    }
    return norm(await get('/api/trees/' + enc(jid)));
  }

  async function pageTree(args) {
    const jid = args[0];
    const tree = await loadTree(jid);
    live.onJob = (ev) => { if (ev.jid === jid) softRender(); };
    const path = '/api/trees/' + enc(jid);
    const actions = canWrite() ? el('div', { class: 'actions' },
      actionButton('Terminate', () => post(path + '/terminate'), { name: 'terminate', confirm: true, class: 'danger' }),
      actionButton('Delete', () => post(path + '/delete'), { name: 'delete', confirm: true, class: 'danger',
        after: () => { location.hash = '#/queues'; } })) : null;
    const ports = tree.ports || {};
    return [
      el('h1', null, 'Job tree ', el('span', { class: 'name', text: tree.jid || jid }),
        ' ', el('span', { class: 'state state-' + String(tree.status), text: tree.status || '' })),
      el('p', { class: 'muted' }, (tree.klass || '') + ' in ', queueLink(tree.queue), ' · ', jobLink(tree.jid || jid)),
      actions,
      el('section', { class: 'tree' }, treeBox(tree, 0)),
      el('div', { class: 'cols' },
        el('section', null, el('h2', { text: 'Ports' }), portTable(ports.in, 'in'), portTable(ports.out, 'out')),
        el('section', null, el('h2', { text: 'Aliases' }),
          (tree.aliases || []).length ? el('ul', { class: 'plain', 'data-list': 'aliases' },
            tree.aliases.map((a) => el('li', null, el('code', { text: a })))) : el('p', { class: 'muted', text: 'none' }))),
      el('div', { class: 'cols' },
        el('section', null, el('h2', { text: 'Subscribers' }), keyValueTable(tree.subscribers, 'channel', 'No subscribers.', 'subscribers')),
        el('section', null, el('h2', { text: 'State' }), keyValueTable(tree.state, 'key', 'No state.', 'state'))),
    ];
  }

  async function pageConfig() {
    const cfg = await get('/api/config');
    return [el('h1', { text: 'Configuration' }), keyValueTable(cfg, 'key', 'No configuration.', 'config')];
  }

  const SEARCH_FIELDS = ['tag', 'class', 'queue', 'worker'];
  const SEARCH_STATES = ['', 'waiting', 'running', 'scheduled', 'stalled', 'depends', 'recurring', 'failed', 'complete'];

  async function pageSearch(args, query) {
    const jidValue = query.get('jid') || query.get('prefix') || '';
    const match = query.get('prefix') ? 'prefix' : 'exact';
    const inputs = {};
    const form = el('form', { class: 'search', 'data-form': 'search' });
    inputs.jid = el('input', { type: 'text', name: 'jid', value: jidValue, placeholder: 'jid' });
    inputs.match = el('select', { name: 'match' },
      el('option', { value: 'exact', text: 'exact', selected: match === 'exact' }),
      el('option', { value: 'prefix', text: 'prefix', selected: match === 'prefix' }));
    append(form, el('label', null, 'jid ', inputs.jid, ' ', inputs.match));
    for (const f of SEARCH_FIELDS) {
      inputs[f] = el('input', { type: 'text', name: f, value: query.get(f) || '', placeholder: f });
      append(form, el('label', null, f + ' ', inputs[f]));
    }
    inputs.state = el('select', { name: 'state' }, SEARCH_STATES.map((s) => el('option',
      { value: s, text: s || 'any state', selected: (query.get('state') || '') === s })));
    append(form, el('label', null, 'state ', inputs.state));
    append(form, el('button', { type: 'submit', text: 'Search', 'data-action': 'search' }));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const q = new URLSearchParams();
      const j = inputs.jid.value.trim();
      if (j) q.set(inputs.match.value === 'prefix' ? 'prefix' : 'jid', j);
      for (const f of SEARCH_FIELDS.concat(['state'])) {
        const v = inputs[f].value.trim();
        if (v) q.set(f, v);
      }
      const limit = query.get('limit');
      if (limit) q.set('limit', limit);
      location.hash = '#/search?' + q.toString();
    });
    const params = {};
    for (const k of ['jid', 'prefix'].concat(SEARCH_FIELDS, ['state'])) if (query.get(k)) params[k] = query.get(k);
    const results = Object.keys(params).length
      ? await pagedJobs('#/search', query, '/api/search', params)
      : el('p', { class: 'muted', text: 'Fill in one or more fields; they combine.' });
    return [el('h1', { text: 'Search' }), form, el('section', { class: 'results' }, results)];
  }

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
    const view = document.getElementById('view');
    const { path, query } = parseHash();
    const hash = location.hash;
    live = { onCounts: null, onJob: null };
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
      content = await page(args, query);
      if (seq !== renderSeq) return;
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
    refreshBadges(lastOverview);
    lastOverview = null;
  }

  // A redraw after a live event: coalesced, and never while the user types.
  let softTimer = null;
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
      session = Object.assign(session, await get('/api/session'));
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

  document.addEventListener('DOMContentLoaded', start);
})();
