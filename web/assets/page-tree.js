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

export async function pageTree(args, query, wants) {
  const jid = args[0];
  const tree = await loadTree(jid);
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
    el('section', { class: 'tree' }, treeBox(tree)),
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
