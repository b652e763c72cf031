/**
 * The HTML report's one stylesheet and one script, both constant. The page's Content-Security-Policy allows
 * exactly these two by their sha256 hash, so nothing else can run or style the page even if escaping failed.
 * The script only sorts and filters rows already rendered server-side; it never builds HTML from strings.
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
tr.pair.interrupted td.status, tr.pair.unanswered td.status, tr.pair.orphan-result td.status { color: var(--err);
  font-weight: 600; }
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
  var tables = d.querySelectorAll('table.sortable');
  Array.prototype.forEach.call(tables, function (table) {
    if (!table.tHead) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      var b = th.querySelector('button');
      if (b) b.addEventListener('click', function () { sortBy(table, th); });
    });
  });
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
      var n = 0;
      for (var i = 0; i < rows.length; i++) {
        var r = rows[i];
        var ok = (!s || r.getAttribute('data-severity') === s) && (!c || r.getAttribute('data-code') === c) &&
          (!k || r.getAttribute('data-sidx') === k) && (!t || texts[i].indexOf(t) >= 0);
        r.hidden = !ok;
        if (ok) n++;
      }
      shown.textContent = n + ' of ' + rows.length + ' findings shown';
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
  d.documentElement.dataset.ready = '1';
})();
`;
