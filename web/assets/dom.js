// DOM building and formatting. Every node is made with the DOM and every
// value goes in as text (never innerHTML), so job data, names and error
// messages cannot inject markup under the strict Content-Security-Policy.

export function el(tag, props) {
  const node = document.createElement(tag);
  setProps(node, props);
  for (let i = 2; i < arguments.length; i++) append(node, arguments[i]);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function svg(tag, props) {
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

export function append(node, kid) {
  if (kid === null || kid === undefined || kid === false) return;
  if (Array.isArray(kid)) { kid.forEach((k) => append(node, k)); return; }
  if (typeof kid === 'string' || typeof kid === 'number') {
    node.appendChild(document.createTextNode(String(kid)));
    return;
  }
  node.appendChild(kid);
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

// ---- formatting --------------------------------------------------------

export function fmtTime(t) {
  if (t === null || t === undefined || t === '' || t === 0) return '—';
  if (typeof t === 'string' && !/^-?[0-9.]+$/.test(t)) return t;
  const n = Number(t);
  if (!isFinite(n) || n <= 0) return '—';
  return new Date(n * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function fmtDur(s) {
  const n = Number(s);
  if (!isFinite(n)) return '—';
  if (n < 1) return (n * 1000).toFixed(0) + ' ms';
  if (n < 120) return n.toFixed(1) + ' s';
  if (n < 7200) return (n / 60).toFixed(1) + ' min';
  if (n < 172800) return (n / 3600).toFixed(1) + ' h';
  return (n / 86400).toFixed(1) + ' d';
}

export function fmtValue(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function enc(s) { return encodeURIComponent(String(s)); }

export function link(hash, text, props) {
  return el('a', Object.assign({ href: hash, text: text }, props || {}));
}
export function jobLink(jid) { return link('#/jobs/' + enc(jid), jid, { class: 'jid' }); }
export function queueLink(q) { return q ? link('#/queues/' + enc(q), q) : '—'; }
export function workerLink(w) { return w ? link('#/workers/' + enc(w), w) : '—'; }
export function stateBadge(state) {
  return el('span', { class: 'state state-' + String(state || 'unknown'), text: state || '—' });
}

export function tagList(tags) {
  if (!tags || !tags.length) return '';
  return el('span', { class: 'tags' },
    tags.map((t) => link('#/search?tag=' + enc(t), t, { class: 'tag' })));
}
