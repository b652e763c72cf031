/** `search QUERY --store DIR`: hits in the store's index, each with its evidence location. */
import { EVENT_KINDS } from '../../model/events.js';
import { EXIT, UsageError } from '../../errors.js';
import { FORMAT_NAMES } from '../../formats/registry.js';
import { colors } from '../../report/ansi.js';
import { escapeText } from '../../report/escape.js';
import { droppedNote, layoutTable, renderGrid, type Cell, type Column } from '../../report/layout.js';
import { wrapLines } from '../../report/wrap.js';
import { displayWidth } from '../../report/width.js';
import { paints } from '../../report/table.js';
import { parseFormat, parseLimit, parseTime, useColor } from '../options.js';
import { opt, type CommandModule } from '../spec.js';

const COLUMNS: Column[] = [
  { head: 'session / time', kind: 'tokens' },
  { head: 'kind / tool', kind: 'tokens' },
  { head: 'match', kind: 'text', min: 36 },
  { head: 'evidence', kind: 'tokens' },
];

export const searchModule: CommandModule = {
  async run(args, io) {
    const query = opt.pos(args, 'query');
    const store = opt.str(args, 'store');
    if (store === undefined) throw new UsageError('search: give the store with --store DIR');
    if (query.trim() === '') throw new UsageError('search: the query is empty');
    const format = parseFormat(opt.str(args, 'format') ?? 'table', ['table', 'json', 'jsonl'] as const);
    const agent = opt.str(args, 'agent');
    if (agent !== undefined && !FORMAT_NAMES.includes(agent))
      throw new UsageError(`--agent ${JSON.stringify(agent)}: expected one of ${FORMAT_NAMES.join(', ')}`);
    const kinds = opt
      .list(args, 'kind')
      .flatMap((k) => k.split(','))
      .filter(Boolean);
    for (const k of kinds)
      if (!(EVENT_KINDS as readonly string[]).includes(k))
        throw new UsageError(`--kind ${JSON.stringify(k)}: expected one of ${EVENT_KINDS.join(', ')}`);
    const limit = parseLimit(opt.num(args, 'limit'), 100);
    const session = opt.str(args, 'session');
    const sinceMs = parseTime('--since', opt.str(args, 'since'));
    const untilMs = parseTime('--until', opt.str(args, 'until'));
    const tool = opt.str(args, 'tool');
    const code = opt.str(args, 'code');
    const { search } = await import('../../engine/index/search.js');
    const r = search(store, query, {
      ...(agent !== undefined ? { agent } : {}),
      ...(session !== undefined ? { session } : {}),
      ...(sinceMs !== undefined ? { sinceMs } : {}),
      ...(untilMs !== undefined ? { untilMs } : {}),
      ...(kinds.length ? { kinds } : {}),
      ...(tool !== undefined ? { tool } : {}),
      ...(code !== undefined ? { code } : {}),
      ...(opt.bool(args, 'mutating') ? { mutating: true } : {}),
      ...(opt.bool(args, 'allow-stale') ? { allowStale: true } : {}),
      limit: Number.isFinite(limit) ? limit : 0,
    });
    if (r.stale !== undefined)
      io.stderr(
        `session-audit: warning: STORE_INDEX_MISMATCH the index does not answer for the whole store: ` +
          `${escapeText(r.stale)}; these hits are from what it holds (archive --reindex rebuilds it)\n`,
      );
    io.setExitCode(r.hits.length ? EXIT.ok : EXIT.findings);
    const where = (h: (typeof r.hits)[number]): string => `${h.file}:${h.line} @${h.byte} in capture ${h.capture}`;
    // One hit per line however many captures hold it: the first, and the last still holding it.
    const held = (h: (typeof r.hits)[number]): string =>
      h.lastCapture > h.capture ? `captures ${h.capture}-${h.lastCapture}` : `capture ${h.capture}`;
    if (format === 'json') {
      const hits = r.hits.map((h) => ({ ...h, evidence: where(h) }));
      io.stdout(`${JSON.stringify({ query, hits, more: r.more }, null, 2)}\n`);
      return;
    }
    if (format === 'jsonl') {
      for (const h of r.hits) io.stdout(`${JSON.stringify({ ...h, evidence: where(h) })}\n`);
      return;
    }
    if (!r.hits.length) {
      io.stdout(`no hit for ${escapeText(query)}\n`);
      return;
    }
    const c = colors(useColor(opt.bool(args, 'color'), io, false));
    /**
     * A snippet for the terminal: whitespace folded to one space, every match between « and » (bold instead with
     * colour: `paint`), a literal « or » of the text escaped so that it never reads as a match.
     */
    const mark = (h: (typeof r.hits)[number]): string => {
      const plain = (x: string): string =>
        escapeText(x.replace(/\s+/g, ' ')).replace(/[«»]/g, (q) => `\\u{${q.codePointAt(0)!.toString(16)}}`);
      let out = '';
      let at = 0;
      for (const [from, to] of h.highlights) {
        out += `${plain(h.snippet.slice(at, from))}«${plain(h.snippet.slice(from, to))}»`;
        at = to;
      }
      return out + plain(h.snippet.slice(at));
    };
    const paint = (marked: string): string =>
      c.on ? marked.replace(/«([^»]*)»/g, (_m, x: string) => c.bold(x)) : marked;
    const rows = r.hits.map((h): Cell[] => [
      `${escapeText(h.session)}\n${h.time ?? 'no time'}${h.deleted ? '\n(deleted from its source)' : ''}`,
      // A tool named by its title (a whole command line) is shortened here; --format json has it whole.
      [
        h.kind,
        ...(h.tool !== undefined ? [escapeText(h.tool.length > 24 ? `${h.tool.slice(0, 23)}…` : h.tool)] : []),
        ...(h.rewound ? ['(rewound)'] : []),
      ].join('\n'),
      paint(mark(h)),
      // The place on its own line (copied whole), the byte and capture under it.
      `${escapeText(`${h.file}:${h.line}`)}\n@${h.byte} in ${held(h)}`,
    ]);
    const layout = layoutTable(COLUMNS, rows, io.columns);
    let out: string;
    if (layout.fits) {
      const grid = renderGrid(COLUMNS, rows, io.columns, paints(c));
      out = grid.text + droppedNote(grid.layout, io.columns, '--format json');
    } else {
      // Too narrow for the columns (ids and paths are never broken): one block per hit, the evidence on its own
      // line where it can be copied whole, the match wrapped to the width.
      out = r.hits
        .map((h) => {
          // The session and its time, then what the hit is: on one line where both fit, else the second under the
          // first, indented (a tool's title wrapped to the margin would read as the next hit's).
          const who = `${escapeText(h.session)}  ${h.time ?? 'no time'}`;
          const what = [h.kind, h.tool !== undefined ? escapeText(h.tool) : '']
            .concat(h.rewound ? ['(rewound)'] : [], h.deleted ? ['(deleted from its source)'] : [])
            .filter((x) => x !== '')
            .join('  ');
          const head =
            displayWidth(who) + 2 + displayWidth(what) <= io.columns
              ? `${who}  ${what}`
              : [
                  ...wrapLines(who, io.columns).map((l) => l.trimEnd()),
                  ...wrapLines(what, Math.max(20, io.columns - 2)).map((l) => `  ${l}`),
                ].join('\n');
          const match = wrapLines(mark(h), Math.max(20, io.columns - 4))
            .map((l) => `    ${paint(l)}`)
            .join('\n');
          return `${c.bold(head)}\n  ${escapeText(`${h.file}:${h.line} @${h.byte} in ${held(h)}`)}\n${match}\n`;
        })
        .join('\n');
    }
    if (r.more) out += `(more hits than --limit ${limit}: raise it, or narrow the query)\n`;
    io.stdout(out);
  },
};
