// A job tree's page: the tree drawn as nested boxes, ports, subscribers,
// aliases, the job's JSON state; terminate and delete.
import { el, enc, link, jobLink, queueLink } from './dom.js';
import { get, post, canWrite } from './api.js';
import { actionButton, table, keyValueTable, redraw } from './ui.js';

function treeBox(node) {
  const kids = node.children || [];
  return el('div', { class: 'tree-node status-' + String(node.status || 'unknown'), 'data-tree-jid': node.jid || '' },
    el('div', { class: 'tree-head' },
      node.name ? el('span', { class: 'tree-name', text: node.name }) : null,
      node.jid ? link('#/trees/' + enc(node.jid), node.jid, { class: 'jid' }) : null,
      el('span', { class: 'state state-' + String(node.status || 'unknown'), text: node.status || '—' }),
      node.jid ? link('#/jobs/' + enc(node.jid), 'job', { class: 'muted' }) : null),
    kids.length ? el('div', { class: 'tree-children' }, kids.map(treeBox)) : null);
}

function portTable(ports, dir) {
  const cols = [
    { title: dir + ' port', key: 'name' },
    { title: 'queued', class: 'num', render: (p) => String(p.size || 0) },
    { title: 'channels', render: (p) => (p.channels || []).join(', ') || '—' },
  ];
  return table(cols, ports || [], { empty: 'No ' + dir + 'put ports.', attrs: { 'data-list': 'ports-' + dir } });
}

// Each channel the tree's ports link to, with its live subscribers (the
// API sends at most 20 of each, and the set's size as total).
function subscriberTable(rows) {
  const cols = [
    { title: 'channel', render: (c) => el('code', { text: c.channel }) },
    { title: 'subscribers', render: (c) => (c.jobs || []).length
      ? el('ul', { class: 'plain' }, c.jobs.map((s) => el('li', { 'data-subscriber': s.jid + ':' + s.port },
        link('#/trees/' + enc(s.jid), s.jid, { class: 'jid' }), ' · ', el('code', { text: s.port }))))
      : el('span', { class: 'muted', text: 'none' }) },
    { title: 'total', class: 'num', render: (c) => String(c.total || 0) +
      ((c.total || 0) > (c.jobs || []).length ? ' (' + (c.jobs || []).length + ' shown)' : '') },
  ];
  return table(cols, rows || [], { empty: 'No subscribers.', attrs: { 'data-list': 'subscribers' } });
}

export async function pageTree(args, query, wants) {
  const jid = args[0];
  // The whole tree in one answer: each job with its status and children.
  const tree = await get('/api/trees/' + enc(jid));
  wants.onJob = (ev) => { if (ev.jid === jid) redraw.soft(); };
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
    tree.truncated ? el('p', { class: 'notice', 'data-truncated': '1',
      text: 'A large tree: only its first 200 jobs are drawn; open a child to see below it.' }) : null,
    el('section', { class: 'tree' }, treeBox(tree)),
    el('div', { class: 'cols' },
      el('section', null, el('h2', { text: 'Ports' }), portTable(ports.in, 'in'), portTable(ports.out, 'out')),
      el('section', null, el('h2', { text: 'Aliases' }),
        (tree.aliases || []).length ? el('ul', { class: 'plain', 'data-list': 'aliases' },
          tree.aliases.map((a) => el('li', null, el('code', { text: a })))) : el('p', { class: 'muted', text: 'none' }))),
    el('div', { class: 'cols' },
      el('section', null, el('h2', { text: 'Subscribers' }), subscriberTable(tree.subscribers),
        tree.channels_truncated ? el('p', { class: 'muted', text: 'Only the first 50 channels are listed.' }) : null),
      el('section', null, el('h2', { text: 'State' }), keyValueTable(tree.state, 'key', 'No state.', 'state'))),
  ];
}
