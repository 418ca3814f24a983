// The search page: jid (exact or prefix), tag, class, queue, worker and
// state, combined, with the results paged.
import { el, append } from './dom.js';
import { pagedJobs } from './ui.js';

const SEARCH_FIELDS = ['tag', 'class', 'queue', 'worker'];
const SEARCH_STATES = ['', 'waiting', 'running', 'scheduled', 'stalled', 'depends', 'recurring', 'failed', 'complete'];

export async function pageSearch(args, query) {
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
