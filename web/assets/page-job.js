// A job's page: its facts, data, failure, dependencies both ways, history,
// and the actions on it.
import { el, fmtTime, fmtValue, enc, link, jobLink, queueLink, workerLink, stateBadge } from './dom.js';
import { ApiError, get, post, canWrite } from './api.js';
import { actionButton, inputAction, redraw } from './ui.js';

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

export async function pageJob(args, query, wants) {
  const jid = args[0];
  // Whether it is a tree job: the tree's answer (a 404 for a plain job).
  const [job, tree] = await Promise.all([get('/api/jobs/' + enc(jid)),
    get('/api/trees/' + enc(jid)).catch(() => null)]);
  wants.onJob = (ev) => { if (ev.jid === jid) redraw.soft(); };
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
    el('h2', { text: what[0].toUpperCase() + what.slice(1) }),
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
