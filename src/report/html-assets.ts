/**
 * The HTML report's one stylesheet and one script, both constant. The page's Content-Security-Policy allows
 * exactly these two by their sha256 hash, so nothing else can run or style the page even if escaping failed.
 * The script sorts and filters rows, and draws a session's tables when it is opened, from the JSON embedded for it,
 * with elements and text nodes only: it never builds HTML from strings.
 */
import { createHash } from 'node:crypto';

/** The CSP source expression for an inline element's exact text: `'sha256-<base64>'`. */
export const cspHash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export const CSS = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1f24; --muted: #5b6470; --line: #d6dbe1; --head: #f3f5f7;
  --row: #fafbfc;
  --err: #a3001b; --err-bg: #fde7ea; --warn: #7a4d00; --warn-bg: #fff1cc; --note: #00577f; --note-bg: #e1f1fa;
  --ok: #1d6b2f;
  --bad: #d0021b; --changed: #c26a00; --accent: #0b5cad; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #14171b; --fg: #e3e7eb; --muted: #9aa4ae; --line: #343b43; --head: #1e2329; --row: #181c21;
    --err: #ff8a99; --err-bg: #43121a; --warn: #ffd27a; --warn-bg: #3b2c0c; --note: #8fd3ff; --note-bg: #0e2c3d;
    --ok: #7fd68f;
    --bad: #ff5c6c; --changed: #ffab40; --accent: #7ab8ff; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1500px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.5rem; margin: 8px 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1.05rem; margin: 20px 0 6px; }
h4 { font-size: .95rem; margin: 14px 0 4px; }
code, pre, .mono, td.loc, td.id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  font-size: 12.5px; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; padding: 6px 8px; background: var(--head);
  border-radius: 4px; max-height: 24em; overflow: auto; }
a { color: var(--accent); }
.muted, .empty { color: var(--muted); }
.meta { color: var(--muted); margin: 0 0 12px; overflow-wrap: anywhere; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.card b { display: block; font-size: 1.4rem; }
.card.error b { color: var(--err); } .card.warning b { color: var(--warn); } .card.note b { color: var(--note); }
table { border-collapse: separate; border-spacing: 0; width: 100%; margin: 6px 0 12px; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line);
  overflow-wrap: break-word; }
td.msg, td.what { overflow-wrap: anywhere; min-width: 16em; }
td.code, td.session, td.time, table.timeline td.loc { white-space: nowrap; }
thead th { position: sticky; top: 0; z-index: 1; background: var(--head); font-weight: 600; white-space: nowrap; }
thead th button { all: unset; cursor: pointer; }
thead th button:focus-visible { outline: 2px solid var(--accent); }
thead th[aria-sort="ascending"] button::after { content: " \\25B2"; }
thead th[aria-sort="descending"] button::after { content: " \\25BC"; }
tbody tr:nth-child(even) { background: var(--row); }
table.codes { width: auto; }
.sev { display: inline-block; padding: 0 6px; border-radius: 3px; font-weight: 600; font-size: 12px; }
.sev.error { color: var(--err); background: var(--err-bg); }
.sev.warning { color: var(--warn); background: var(--warn-bg); }
.sev.note { color: var(--note); background: var(--note-bg); }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; margin: 8px 0; }
.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
.filters select, .filters input { font: inherit; color: inherit; background: var(--bg);
  border: 1px solid var(--line); border-radius: 4px; padding: 3px 6px; max-width: 28em; }
button.link { font: inherit; color: var(--accent); background: none; border: 0; padding: 0; cursor: pointer;
  text-decoration: underline; }
.flag { display: inline-block; margin: 0 2px 2px 0; padding: 0 5px; border-radius: 3px; font-size: 11px;
  font-weight: 600; border: 1px solid currentColor; }
.flag.rewound { color: var(--err); } .flag.compacted { color: var(--muted); } .flag.displaced { color: var(--warn);
  } .flag.resume { color: var(--accent); }
.flag.mutating { color: var(--changed); }
tr.event.rewound td.what { text-decoration: line-through; text-decoration-color: var(--err); }
tr.event.rewound, tr.event.compacted { color: var(--muted); }
tr.event.resume td { border-top: 2px solid var(--accent); }
tr.event.d1 td.what { padding-left: 24px; } tr.event.d2 td.what { padding-left: 40px;
  } tr.event.d3 td.what { padding-left: 56px; }
tr.pair.interrupted td.status, tr.pair.unanswered td.status, tr.pair.orphan-result td.status, tr.pair.failed
  td.status, tr.pair.failed-log-only- td.status { color: var(--err); font-weight: 600; }
details summary { cursor: pointer; }
section.session { border-top: 2px solid var(--line); margin-top: 28px; }
.scroll { overflow-x: auto; }
svg.lineage { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
svg.lineage .root { font-size: 13px; font-weight: 600; fill: var(--fg); }
svg.lineage rect { fill: var(--bg); stroke: var(--muted); stroke-width: 1.2; }
svg.lineage .node.flagged rect { stroke: var(--changed); stroke-width: 2; }
svg.lineage .node.widened rect, svg.lineage .node.dropped rect { stroke: var(--bad); stroke-width: 2.5; }
svg.lineage .node.phantom rect { stroke-dasharray: 4 3; }
svg.lineage .node text { font-size: 12px; fill: var(--fg); }
svg.lineage .node text.sub { fill: var(--muted); font-size: 11px; }
svg.lineage path.edge { fill: none; stroke: var(--muted); stroke-width: 1.5; }
svg.lineage path.edge.widened, svg.lineage path.edge.dropped { stroke: var(--bad); stroke-width: 2.5;
  stroke-dasharray: 7 4; }
svg.lineage path.edge.changed { stroke: var(--changed); stroke-width: 2; stroke-dasharray: 3 3; }
svg.lineage path.edge.phantom { stroke-dasharray: 2 3; }
svg.lineage text.elabel { font-size: 11px; fill: var(--muted); }
svg.lineage text.elabel.widened, svg.lineage text.elabel.dropped { fill: var(--bad); font-weight: 700; }
svg.lineage text.elabel.changed { fill: var(--changed); font-weight: 600; }
svg.lineage .arrow { fill: var(--muted); } svg.lineage .arrow.bad { fill: var(--bad); }
.legend .bad { color: var(--bad); font-weight: 600; } .legend .changed { color: var(--changed); font-weight: 600; }
#verdict h2.headline { border: 0; font-size: 1.45rem; margin: 12px 0 4px; }
#verdict h2.headline.error { color: var(--err); } #verdict h2.headline.warning { color: var(--warn); }
#verdict h2.headline.note { color: var(--note); }
p.gate { margin: 4px 0 8px; font-size: 1.05rem; } p.gate.failed b { color: var(--err); }
p.gate.passed b { color: var(--ok); } p.gate.none b { color: var(--muted); }
ul.config { margin: 4px 0 8px; padding-left: 20px; }
details.session { border-top: 1px solid var(--line); padding: 4px 0; }
details.session > summary { overflow-wrap: anywhere; }
details.session > summary .path { font-weight: 600; }
details.session .body { padding: 4px 0 12px 16px; }
.counts .sev { margin-left: 4px; }
tr.hl td { background: var(--warn-bg) !important; outline: 2px solid var(--warn); }
details.raw { margin-top: 4px; }
details.raw > summary, details.more > summary { color: var(--accent); font-size: 12px; }
pre.bytes { max-height: 18em; }
span.inv { color: var(--err); background: var(--err-bg); border-radius: 2px; }
a.goto { font-size: 12px; margin-left: 6px; white-space: nowrap; }
`;

export const SCRIPT = `
(function () {
  'use strict';
  var d = document;
  function cellValue(row, col) {
    var c = row.cells[col];
    if (!c) return '';
    var v = c.getAttribute('data-v');
    return v === null ? c.textContent || '' : v;
  }
  function sortBy(table, th) {
    var tb = table.tBodies[0];
    if (!tb) return;
    var col = th.cellIndex;
    var num = th.getAttribute('data-type') === 'num';
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    var heads = th.parentNode.cells;
    for (var i = 0; i < heads.length; i++) heads[i].removeAttribute('aria-sort');
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    var keyed = Array.prototype.map.call(tb.rows, function (r) {
      var v = cellValue(r, col);
      var k = v;
      if (num) { k = v === '' ? Infinity : Number(v); if (k !== k) k = Infinity; }
      return { r: r, k: k, i: Number(r.getAttribute('data-i')) };
    });
    keyed.sort(function (a, b) { return (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) * dir || a.i - b.i; });
    var frag = d.createDocumentFragment();
    for (var j = 0; j < keyed.length; j++) frag.appendChild(keyed[j].r);
    tb.appendChild(frag);
  }
  function bindSort(table) {
    if (!table.tHead) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      var b = th.querySelector('button');
      if (b) b.addEventListener('click', function () { sortBy(table, th); });
    });
  }
  Array.prototype.forEach.call(d.querySelectorAll('table.sortable'), bindSort);
  function el(tag, cls, text) {
    var e = d.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function cell(tr, text, cls, v) {
    var td = el('td', cls, text);
    if (v !== undefined) td.setAttribute('data-v', String(v));
    tr.appendChild(td);
    return td;
  }
  function table(cls, heads) {
    var t = el('table', 'sortable ' + cls);
    var hr = el('tr');
    heads.forEach(function (hd) {
      var th = el('th');
      th.setAttribute('scope', 'col');
      if (hd[1]) th.setAttribute('data-type', 'num');
      th.appendChild(el('button', null, hd[0])).setAttribute('type', 'button');
      hr.appendChild(th);
    });
    t.appendChild(el('thead')).appendChild(hr);
    t.appendChild(el('tbody'));
    return t;
  }
  function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }
  function when(ms) { return ms === null ? '' : new Date(ms).toISOString().replace('T', ' ').replace('Z', ''); }
  var FLAGS = [[1, 'rewound', 'rewound', 'a later rewind removed this event from the live branch'],
    [2, 'compacted', 'compacted', 'before the last compaction: the model now sees only its summary'],
    [4, 'displaced', 'late', 'written to the file after events emitted later (an ACP line the writer held back)'],
    [8, 'resume', 'resume', 'a new process picked the session up here']];
  function timelineTable(t) {
    var tab = table('timeline', [['time (UTC)'], ['prompt', 1], ['kind'], ['what'], ['where'], ['flags']]);
    var tb = tab.tBodies[0];
    var ms = 0;
    t.e.forEach(function (ev, i) {
      if (ev[0] !== null) { ms += ev[0]; ev[0] = ms; }
      var tr = el('tr', 'event');
      FLAGS.forEach(function (f) { if (ev[6] & f[0]) tr.classList.add(f[1]); });
      if (ev[7]) tr.classList.add('d' + Math.min(ev[7], 3));
      tr.setAttribute('data-i', String(i));
      tr.setAttribute('data-kind', t.kinds[ev[2]]);
      tr.setAttribute('data-file', t.files[ev[3]]);
      tr.setAttribute('data-line', String(ev[4]));
      cell(tr, when(ev[0]), 'time mono', when(ev[0]));
      cell(tr, ev[1] === null ? '' : ev[1], null, ev[1] === null ? '' : ev[1]);
      cell(tr, t.kinds[ev[2]], 'mono');
      var summary = typeof ev[8] === 'number' ? ev[9].slice(0, ev[8]) + '\u2026' : ev[8];
      var what = cell(tr, null, 'what', summary);
      if (ev[12]) what.appendChild(el('div', 'resume-evidence', 'resumed: ' + ev[12]));
      var det = what.appendChild(el('details'));
      det.appendChild(el('summary', null, summary || '(empty)'));
      det.appendChild(el('div', 'muted', (ev[11] ? ev[11] + ' \u00b7 ' : '') + t.tags[ev[10]]));
      if (ev[9]) det.appendChild(el('pre', null, ev[9]));
      // A line of the file the heading names: its line and offset alone.
      cell(tr, (ev[3] === t.m ? '' : t.files[ev[3]]) + ':' + ev[4] + ' @' + ev[5], 'loc',
        t.files[ev[3]] + ' ' + pad(ev[4], 12));
      var fl = cell(tr, null);
      FLAGS.forEach(function (f) { if (ev[6] & f[0]) fl.appendChild(el('span', 'flag ' + f[1], f[2])).title = f[3]; });
      tb.appendChild(tr);
    });
    bindSort(tab);
    return tab;
  }
  function pairsTable(p) {
    var tab = table('pairs', [['call id'], ['tool'], ['prompt', 1], ['called'], ['answered'], ['status'], ['note']]);
    var tb = tab.tBodies[0];
    p.forEach(function (r, i) {
      var tr = el('tr', 'pair ' + r[5].toLowerCase().replace(/[^a-z]+/g, '-'));
      tr.setAttribute('data-i', String(i));
      tr.setAttribute('data-status', r[5]);
      tr.setAttribute('data-call-id', r[0]);
      cell(tr, r[0], 'id');
      var tool = cell(tr, r[1], null, r[1]);
      if (r[2]) tool.appendChild(el('span', 'muted', ' (' + r[2] + ')'));
      if (r[3])
        tool.appendChild(el('span', 'flag mutating', 'mutating')).title = 'the tool can change files or run commands';
      if (r[9]) {
        var a = tool.appendChild(el('details'));
        a.appendChild(el('summary', null, 'arguments'));
        a.appendChild(el('pre', null, r[9]));
      }
      cell(tr, r[4] === null ? '' : r[4], null, r[4] === null ? '' : r[4]);
      cell(tr, r[6], 'loc');
      cell(tr, r[7], 'loc');
      cell(tr, r[5], 'status');
      cell(tr, r[8]);
      tb.appendChild(tr);
    });
    bindSort(tab);
    return tab;
  }
  function filesBlock(f) {
    var det = el('details', 'files');
    det.appendChild(el('summary', null, 'Files (' + f.length + ')'));
    var tab = el('table', 'files');
    var hr = tab.appendChild(el('thead')).appendChild(el('tr'));
    ['path', 'type', 'bytes', 'sha256 / note'].forEach(function (x) { hr.appendChild(el('th', null, x)); });
    var tb = tab.appendChild(el('tbody'));
    f.forEach(function (r) {
      var tr = el('tr', 'file');
      cell(tr, r[0], 'loc');
      cell(tr, r[1]);
      cell(tr, r[2] === null ? '' : r[2]);
      cell(tr, r[3], 'mono');
      tb.appendChild(tr);
    });
    det.appendChild(tab);
    return det;
  }
  function render(det) {
    if (det.getAttribute('data-rendered')) return;
    var src = d.getElementById('sd-' + det.id);
    var slot = det.querySelector('.slot');
    if (!slot) return;
    var data = src ? JSON.parse(src.textContent || 'null') : { none: true };
    det.setAttribute('data-rendered', '1');
    if (data.none) {
      slot.appendChild(el('p', 'muted truncated', 'Not embedded: the page keeps to its size budget and worse ' +
        'sessions used it. Run session-audit timeline and pairs on this session.'));
      return;
    }
    if (data.f.length) slot.appendChild(filesBlock(data.f));
    var t = data.t;
    if (t && t.omitted) {
      slot.appendChild(el('h4', null, 'Timeline'));
      slot.appendChild(el('p', 'muted truncated', 'Not embedded: the page keeps to its size budget and worse ' +
        'sessions used it. Run session-audit timeline on this session.'));
    } else if (t) {
      slot.appendChild(el('h4', null, 'Timeline' + (t.m !== undefined ? ' of ' + t.files[t.m] : '') + ' (' +
        t.e.length + ' event' + (t.e.length === 1 ? '' : 's') + (t.more ? ', ' + t.more + ' more not shown' : '') +
        ')'));
      if (t.e.length) slot.appendChild(timelineTable(t));
      else slot.appendChild(el('p', 'empty', 'No events.'));
      if (t.more) slot.appendChild(el('p', 'muted truncated', t.more + ' later event(s) are not shown; run ' +
        'session-audit timeline on this session for all of them.'));
    }
    if (data.p) {
      slot.appendChild(el('h4', null, 'Tool calls' + (data.pf ? ' in ' + data.pf : '') + ' (' + data.p.length + ')'));
      if (data.p.length) slot.appendChild(pairsTable(data.p));
      else slot.appendChild(el('p', 'empty', 'No tool calls.'));
    }
    if (!t && !data.p) slot.appendChild(el('p', 'empty', 'No timeline or tool-call table for this session.'));
  }
  d.addEventListener('toggle', function (ev) {
    var t = ev.target;
    if (t && t.classList && t.classList.contains('session') && t.open) render(t);
  }, true);
  var lit = null;
  function goto(a) {
    var det = d.getElementById(a.getAttribute('data-s') || '');
    if (!det) return;
    render(det);
    det.open = true;
    var f = a.getAttribute('data-file'), l = Number(a.getAttribute('data-line'));
    var rows = det.querySelectorAll('tr.event');
    // The row of that line, else the last one before it in the same file (a damaged line has no event).
    var hit = null, best = -1;
    for (var i = 0; i < rows.length; i++) {
      if (rows[i].getAttribute('data-file') !== f) continue;
      var n = Number(rows[i].getAttribute('data-line'));
      if (n <= l && n > best) { best = n; hit = rows[i]; }
    }
    if (lit) lit.classList.remove('hl');
    lit = hit;
    if (hit) {
      hit.classList.add('hl');
      hit.scrollIntoView({ block: 'center' });
    } else det.scrollIntoView();
  }
  d.addEventListener('click', function (ev) {
    var a = ev.target && ev.target.closest ? ev.target.closest('a.goto') : null;
    if (!a) return;
    ev.preventDefault();
    goto(a);
  });
  if (location.hash) {
    var target = d.getElementById(location.hash.slice(1));
    if (target && target.classList.contains('session')) { render(target); target.open = true; }
  }
  var ft = d.getElementById('findings');
  if (ft && ft.tBodies[0]) {
    var rows = Array.prototype.slice.call(ft.tBodies[0].rows);
    var texts = null;
    var sev = d.getElementById('f-severity');
    var code = d.getElementById('f-code');
    var ses = d.getElementById('f-session');
    var q = d.getElementById('f-text');
    var shown = d.getElementById('f-shown');
    var apply = function () {
      var s = sev.value, c = code.value, k = ses.value, t = q.value.toLowerCase();
      if (t && !texts) texts = rows.map(function (r) { return (r.textContent || '').toLowerCase(); });
      // A row may stand for several findings of one code in one file (data-n): the count is of findings.
      var n = 0, all = 0;
      for (var i = 0; i < rows.length; i++) {
        var r = rows[i];
        var ok = (!s || r.getAttribute('data-severity') === s) && (!c || r.getAttribute('data-code') === c) &&
          (!k || r.getAttribute('data-sidx') === k) && (!t || texts[i].indexOf(t) >= 0);
        var m = Number(r.getAttribute('data-n')) || 1;
        r.hidden = !ok;
        all += m;
        if (ok) n += m;
      }
      shown.textContent = n + ' of ' + all + ' findings in the table shown';
    };
    sev.addEventListener('change', apply);
    code.addEventListener('change', apply);
    ses.addEventListener('change', apply);
    q.addEventListener('input', apply);
    var pick = function (sel, value) {
      sel.value = value;
      apply();
      ft.scrollIntoView();
    };
    Array.prototype.forEach.call(d.querySelectorAll('button.code-filter'), function (b) {
      b.addEventListener('click', function () { pick(code, b.getAttribute('data-code') || ''); });
    });
    Array.prototype.forEach.call(d.querySelectorAll('button.session-filter'), function (b) {
      b.addEventListener('click', function () { pick(ses, b.getAttribute('data-sidx') || ''); });
    });
    apply();
  }
  d.documentElement.dataset.readyMs = String(Math.round(performance.now()));
  d.documentElement.dataset.ready = '1';
})();
`;
