// The Queues page (counts, pause, max concurrency, updated live) and a
// queue's page (counts as tabs, its jobs by state, the day's histograms).
import { el, svg, clear, fmtDur, enc, queueLink } from './dom.js';
import { ApiError, get, post, qs, canWrite } from './api.js';
import { actionButton, inputAction, pagedJobs, overview } from './ui.js';

export const STATES = ['waiting', 'running', 'scheduled', 'stalled', 'depends', 'recurring'];
const COUNT_FIELDS = STATES.concat(['paused', 'max_concurrency']);

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
    inputAction('Set', 'max jobs', (v) => {
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

export async function pageQueues(args, query, wants) {
  const ov = await get('/api/overview');
  overview.last = ov;   // the header's totals too
  const queues = ov.queues || [];
  const cols = ['queue'].concat(STATES, ['paused', 'max concurrency']);
  if (canWrite()) cols.push('');
  const body = el('tbody', null, queues.map(queueRow));
  const tbl = el('table', { class: 'grid', 'data-list': 'queues' },
    el('thead', null, el('tr', null, cols.map((c) => el('th', { text: c })))), body);
  if (!queues.length) body.appendChild(el('tr', { class: 'empty' }, el('td', { colspan: cols.length, text: 'No queues yet.' })));
  wants.onCounts = (items) => {
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

export async function pageQueue(args, query, wants) {
  const name = args[0];
  const route = '#/queues/' + enc(name);
  const state = STATES.includes(query.get('state')) ? query.get('state') : 'waiting';
  const date = query.get('date') || '';
  const [info, list] = await Promise.all([
    get('/api/queues/' + enc(name) + qs({ date: date })),
    pagedJobs(route, query, '/api/queues/' + enc(name) + '/jobs', { state: state }),
  ]);
  // A tab keeps the chosen day; its list starts at the first page.
  const tabs = el('div', { class: 'tabs' }, STATES.map((s) => el('a', {
    href: route + qs({ state: s, date: date }), class: 'tab' + (s === state ? ' active' : ''), 'data-tab': s },
  s + ' ', el('span', { class: 'badge', 'data-field': s, text: String(info[s] || 0) }))));
  wants.onCounts = (items) => {
    for (const q of items) {
      if (q.name !== name) continue;
      for (const s of STATES) {
        const badge = tabs.querySelector('[data-field="' + s + '"]');
        if (badge) badge.textContent = String(q[s] || 0);
      }
    }
  };
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
