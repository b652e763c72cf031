/** `captures --store DIR [--session ID]`: every session the store holds and its captures, from the records. */
import { EXIT } from '../../errors.js';
import { colors } from '../../report/ansi.js';
import { escapeText } from '../../report/escape.js';
import { renderGrid, type Cell, type Column } from '../../report/layout.js';
import { paints } from '../../report/table.js';
import { parseFormat, useColor } from '../options.js';
import { opt, type CommandModule } from '../spec.js';

const COLUMNS: Column[] = [
  { head: 'capture', kind: 'token', align: 'right' },
  { head: 'time', kind: 'token' },
  { head: 'status', kind: 'token' },
  { head: 'bytes', kind: 'token', align: 'right' },
  { head: 'what the capture recorded', kind: 'text', min: 24 },
];

export const capturesModule: CommandModule = {
  async run(args, io) {
    const store = opt.str(args, 'store');
    const { UsageError } = await import('../../errors.js');
    if (store === undefined) throw new UsageError('captures: give the store with --store DIR');
    const format = parseFormat(opt.str(args, 'format') ?? 'table', ['table', 'json'] as const);
    const { listCaptures } = await import('../../engine/captures.js');
    const l = listCaptures(store, opt.str(args, 'session'));
    io.setExitCode(EXIT.ok);
    if (format === 'json') {
      io.stdout(`${JSON.stringify(l, null, 2)}\n`);
      return;
    }
    const c = colors(useColor(opt.bool(args, 'color'), io, false));
    const out: string[] = [];
    for (const s of l.sessions) {
      out.push(c.bold(escapeText(s.path)));
      const what = s.agent || (s.id.startsWith('home:') ? "an agent home's own files" : "a group's own files");
      out.push(`${escapeText(s.id)}  ${what}  key ${s.key}`);
      // A session shown by its one file (the title) names it as "the log": its name is above, whole.
      const name = (file: string): string =>
        s.path.endsWith(`/${file}`) || s.path === file ? 'the log' : escapeText(file);
      const rows = s.captures.map((x): Cell[] => {
        const what = [
          x.status === 'deleted' ? 'the session was deleted from its source (its earlier captures stay)' : '',
          x.status === 'new' ? `first capture: ${x.files} ${x.files === 1 ? 'entry' : 'entries'}` : '',
          ...x.grew.map((g) => `${name(g.file)} grew ${g.from} → ${g.to} bytes`),
          ...x.rewritten.map(
            (w) =>
              `REWRITTEN ${name(w.file)}${w.line !== undefined ? ` at line ${w.line}` : ''} (BUNDLE_NOT_APPEND_ONLY)`,
          ),
          ...x.deletedLogs.map((f) => `log deleted in the source: ${name(f)}`),
          x.basis !== undefined ? `compared with capture ${x.basis}` : '',
        ].filter(Boolean);
        return [x.seq, x.run, x.status, x.bytes, what.join('; ') || 'changed'];
      });
      out.push(renderGrid(COLUMNS, rows, io.columns, paints(c)).text.trimEnd());
      out.push('');
    }
    for (const g of l.gaps)
      out.push(
        `gap record ${g.seq} (${g.run}): ${escapeText(g.found)}; acknowledged by ${escapeText(g.by)}: ` +
          `${escapeText(JSON.stringify(g.reason))}`,
      );
    const n = l.sessions.reduce((k, s) => k + s.captures.length, 0);
    out.push(
      `${l.sessions.length} session${l.sessions.length === 1 ? '' : 's'}, ${n} capture${n === 1 ? '' : 's'}` +
        `${l.gaps.length ? `, ${l.gaps.length} acknowledged gap${l.gaps.length === 1 ? '' : 's'}` : ''}; ` +
        'bundle one with: session-audit bundle --from-store DIR --session ID --at N -o FILE',
    );
    io.stdout(`${out.join('\n')}\n`);
  },
};
