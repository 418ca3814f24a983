// The list pages: failed groups, workers, tracked and recurring jobs,
// schedules, configuration.
import { el, fmtTime, fmtDur, fmtValue, enc, link, jobLink, queueLink, workerLink } from './dom.js';
import { get, post, qs, canWrite } from './api.js';
import { actionButton, notice, table, JOB_COLUMNS, asJobs, pageParams, pager, pagedJobs, keyValueTable, redraw } from './ui.js';

export async function pageFailed(args, query, wants) {
  const resp = await get('/api/failed');
  const groups = resp.groups || resp.items || [];
  const cols = [
    { title: 'group', render: (g) => link('#/failed/' + enc(g.group), g.group) },
    { title: 'jobs', class: 'num', key: 'count', cellProps: (g) => ({ 'data-group-count': g.group }) },
  ];
  if (canWrite()) cols.push({ title: '', render: (g) => groupActions(g.group) });
  wants.onJob = (ev) => { if (ev.event === 'failed') redraw.soft(); };
  return [el('h1', { text: 'Failed jobs' }),
    table(cols, groups, { empty: 'No failed jobs.', attrs: { 'data-list': 'failed-groups' } })];
}

// The server moves at most 5,000 jobs per request and answers {done,
// remaining}: ask again until none remain (or a request moves nothing,
// so a job that cannot move does not loop forever), showing the progress.
async function allOfGroup(url, verb) {
  let done = 0;
  for (;;) {
    const r = await post(url);
    done += (r && r.done) || 0;
    if (!r || !r.remaining || !r.done) return { done: done, remaining: (r && r.remaining) || 0 };
    notice(verb + ' ' + done + ' jobs, ' + r.remaining + ' to go…');
  }
}

function groupActions(group) {
  const path = '/api/failed/' + enc(group);
  const left = (r) => (r.remaining ? ' (' + r.remaining + ' could not move)' : '');
  return el('span', { class: 'actions' },
    actionButton('Retry all', () => allOfGroup(path + '/retry-all', 'retried'), { name: 'retry-all', confirm: true,
      done: (r) => 'retried ' + r.done + ' jobs of ' + group + left(r) }),
    actionButton('Cancel all', () => allOfGroup(path + '/cancel-all', 'cancelled'), { name: 'cancel-all',
      confirm: true, class: 'danger', done: (r) => 'cancelled ' + r.done + ' jobs of ' + group + left(r) }));
}

export async function pageFailedGroup(args, query) {
  const group = args[0];
  const route = '#/failed/' + enc(group);
  return [el('h1', null, 'Failed: ', el('span', { class: 'name', text: group })),
    canWrite() ? groupActions(group) : null,
    await pagedJobs(route, query, '/api/failed/' + enc(group))];
}

export async function pageWorkers() {
  const resp = await get('/api/workers');
  const cols = [
    { title: 'worker', render: (w) => workerLink(w.name) },
    { title: 'jobs', class: 'num', render: (w) => String(Array.isArray(w.jobs) ? w.jobs.length : w.jobs || 0) },
    { title: 'stalled', class: 'num', render: (w) => String(Array.isArray(w.stalled) ? w.stalled.length : w.stalled || 0) },
  ];
  return [el('h1', { text: 'Workers' }),
    table(cols, resp.items || [], { empty: 'No workers.', attrs: { 'data-list': 'workers' } })];
}

export async function pageWorker(args) {
  const name = args[0];
  const resp = await get('/api/workers/' + enc(name));
  return [el('h1', null, 'Worker ', el('span', { class: 'name', text: name })),
    el('h2', { text: 'Running' }),
    table(JOB_COLUMNS, asJobs(resp.jobs), { empty: 'No running jobs.', attrs: { 'data-list': 'jobs' } }),
    el('h2', { text: 'Stalled' }),
    table(JOB_COLUMNS, asJobs(resp.stalled), { empty: 'No stalled jobs.', attrs: { 'data-list': 'stalled' } })];
}

export async function pageTracked(args, query) {
  return [el('h1', { text: 'Tracked jobs' }), await pagedJobs('#/tracked', query, '/api/tracked')];
}

export async function pageRecurring(args, query) {
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

export async function pageSchedules(args, query) {
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

export async function pageSchedule(args, query) {
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

export async function pageConfig() {
  const cfg = await get('/api/config');
  return [el('h1', { text: 'Configuration' }), keyValueTable(cfg, 'key', 'No configuration.', 'config')];
}
