/** `pairs <session..>`: one row per tool call with where it was called and answered, and its status. */
import { type PairRow, statusWord } from '../../pairing/pairing-result.js';
import { escapeText } from '../../report/escape.js';
import { colors } from '../../report/ansi.js';
import { renderGrid, droppedNote, layoutTable, type Cell, type Column } from '../../report/layout.js';
import { paints } from '../../report/table.js';
import { displayWidth } from '../../report/width.js';
import { wrapText } from '../../report/wrap.js';
import { checkOutputFile, withOutput } from '../../engine/output.js';
import { parseFormat, parseFormatHint, parseLimit, parseMaxDbBytes, useColor } from '../options.js';
import { findSessions } from '../../engine/tree.js';
import { notRead, notReadLines, whyNotRead } from '../../model/not-read.js';
import { pairRows } from '../../engine/session.js';
import { opt, type CommandModule } from '../spec.js';
import { fileTitle } from '../title-file.js';

type Where = PairRow['call'];

const WIDE: Column[] = [
  { head: 'call id', kind: 'token' },
  { head: 'tool', kind: 'text', min: 12 },
  { head: 'turn', kind: 'token', align: 'right', drop: 1 },
  { head: 'called', kind: 'tokens' },
  { head: 'answered', kind: 'tokens' },
  { head: 'status', kind: 'token' },
  { head: 'arguments', kind: 'token', drop: 2 },
];
const NARROW: Column[] = [
  { head: 'call id', kind: 'token' },
  { head: 'tool', kind: 'text', min: 10 },
  { head: 'status', kind: 'token' },
  { head: 'called / answered', kind: 'tokens' },
];

const BAD = new Set(['interrupted', 'unanswered', 'orphan result', 'failed']);

/** A call's arguments on one line, cut with an ellipsis (`--format json` has them whole). */
export const ARGS_SHOWN = 40;
export function argsLine(args: string | undefined, max = ARGS_SHOWN): string {
  const one = (args ?? '').replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * One session's table: locations are `file:line`, or just `:line` when every one is in the same file (named above
 * the table unless it is the file the title names, `title`); where the six columns do not fit, called and answered
 * share one.
 */
export function pairsTable(
  rows: readonly PairRow[],
  width: number,
  color: boolean,
  limit: number,
  title?: string,
): string {
  const c = colors(color);
  const files = new Set<string>();
  for (const r of rows) for (const w of [r.call, r.result, r.logCall, r.logTerminal]) if (w) files.add(w.file);
  const oneFile = files.size === 1 ? [...files][0]! : undefined;
  // A place in the only file, or in the file the title names, is its line alone.
  const where = (w: Where): string =>
    w ? (oneFile !== undefined || w.file === title ? `:${w.line}` : `${w.file}:${w.line}`) : '';
  const shown = rows.slice(0, limit);
  const parts = shown.map((r) => {
    const called = r.call ? where(r.call) : r.logCall ? where(r.logCall) : '';
    const answered = r.result
      ? where(r.result)
      : r.logTerminal
        ? `${r.logTerminal.status} at ${where(r.logTerminal)}`
        : '';
    const status = statusWord(r);
    return {
      id: escapeText(r.id),
      tool: escapeText(r.name + (r.mutating ? ' *' : '')),
      turn: r.promptIndex ?? '',
      called: escapeText(called),
      answered: escapeText(answered),
      status: { text: escapeText(status), paint: BAD.has(status) ? c.redBold : (s: string) => s } as Cell,
      args: escapeText(argsLine(r.args)),
      // Under the tool's name where the columns are few: shorter, so that it stays one line.
      shortArgs: escapeText(argsLine(r.args, 24)),
    };
  });
  const wide = parts.map((p): Cell[] => [p.id, p.tool, p.turn, p.called, p.answered, p.status, p.args]);
  const l = layoutTable(WIDE, wide, width);
  // Six columns only when the tool's description still reads well in its column.
  const toolNatural = Math.max(0, ...parts.map((p) => displayWidth(p.tool)));
  const grid =
    l.fits && l.dropped.length === 0 && l.widths[1]! >= Math.min(toolNatural, 24)
      ? renderGrid(WIDE, wide, width, paints(c))
      : renderGrid(
          NARROW,
          parts.map((p): Cell[] => [
            p.id,
            `${p.tool}${p.shortArgs ? `\n${p.shortArgs}` : ''}`,
            p.status,
            `${p.turn !== '' ? `turn ${p.turn} ` : ''}${p.called ? `called ${p.called}` : 'no call'}\n` +
              `${p.answered ? `answered ${p.answered}` : 'no answer'}`,
          ]),
          width,
          paints(c),
        );
  const named = oneFile !== undefined && oneFile !== title;
  let out = named ? `${wrapText(`(locations are lines of ${escapeText(oneFile)})`, width)}\n${grid.text}` : grid.text;
  out += droppedNote(grid.layout, width, '--format json');
  if (rows.length > shown.length)
    out += `${shown.length} of ${rows.length} calls shown: \`--limit 0\` shows them all, \`--format json\` too.\n`;
  return out;
}

export const pairsModule: CommandModule = {
  run(args, io) {
    const paths = opt.posList(args, 'paths');
    const format = parseFormat(opt.str(args, 'format') ?? 'table', ['table', 'json']);
    const limit = parseLimit(opt.num(args, 'limit'));
    const maxDbBytes = parseMaxDbBytes(opt.num(args, 'max-db-bytes'));
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, paths);
    const found = findSessions(paths, parseFormatHint(opt.str(args, 'format-hint')));
    const color = useColor(opt.bool(args, 'color'), io, output !== undefined);
    const width = Math.max(40, io.columns);
    io.setExitCode(0);
    // Said first: a reader that stops early (| head) still gets it.
    io.stderr(notReadLines(notRead(found), 'these tool calls'));
    withOutput(output, io.stdout, (out) => {
      // One session at a time: its rows are written, then dropped.
      found.forEach((f, i) => {
        const why = whyNotRead(f);
        const s = {
          id: f.id,
          path: f.display,
          ...(why !== undefined ? { notRead: why } : {}),
          rows: pairRows(f, maxDbBytes),
        };
        if (format === 'json') {
          const body = JSON.stringify(s, null, 2).replaceAll('\n', '\n    ');
          out.write(`${i === 0 ? '{\n  "sessions": [\n' : ',\n'}    ${body}`);
          return;
        }
        // The path whole, on its own line (it can be copied), then the count.
        if (why !== undefined) {
          out.write(`${colors(color).bold(escapeText(s.path))}\nnot read: ${escapeText(why)}\n\n`);
          return;
        }
        out.write(`${colors(color).bold(escapeText(s.path))}\n${s.rows.length} tool call(s)\n`);
        if (s.rows.length) out.write(pairsTable(s.rows, width, color, limit, fileTitle(f)));
        out.write('\n');
      });
      out.write(
        format === 'json' ? '\n  ]\n}\n' : `${wrapText('* the tool can change files or run commands', width)}\n`,
      );
    });
  },
};
