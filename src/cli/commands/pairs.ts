/** `pairs <session..>`: one row per tool call with where it was called and answered, and its status. */
import type { Argv, CommandModule } from 'yargs';
import Table from 'cli-table3';
import type { PairRow } from '../../pairing/classify.js';
import { escapeText } from '../../report/escape.js';
import { NO_ROW_LINES } from '../../report/table.js';
import { wrapText } from '../../report/wrap.js';
import type { Io } from '../io.js';
import { checkOutputPath, writeOutput } from '../../engine/output.js';
import { parseFormat, parseFormatHint, withFormatHint } from '../options.js';
import { findSessions } from '../../engine/tree.js';
import { pairRows } from '../../engine/session.js';

type Args = { paths: string[]; format: string; output?: string; 'format-hint'?: string };

const where = (w: PairRow['call']): string => (w ? `${w.file}:${w.line}` : '');

export function pairsCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'pairs <paths..>',
    describe: 'tool call ↔ result table: where each call was made and answered, and its status',
    builder: (y: Argv) =>
      withFormatHint(y)
        .positional('paths', { type: 'string', array: true, demandOption: true })
        .option('format', { alias: 'f', type: 'string', default: 'table', describe: 'table | json' })
        .option('output', { alias: 'o', type: 'string', describe: 'write to FILE' }) as unknown as Argv<Args>,
    handler: (argv) => {
      const format = parseFormat(argv.format, ['table', 'json']);
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, argv.paths);
      const sessions = findSessions(argv.paths, parseFormatHint(argv['format-hint'])).map((found) => ({
        id: found.id,
        path: found.display,
        rows: pairRows(found),
      }));
      if (format === 'json') {
        writeOutput(`${JSON.stringify({ sessions }, null, 2)}\n`, output, io.stdout);
        return;
      }
      const out: string[] = [];
      const w = Math.max(80, io.columns);
      for (const s of sessions) {
        out.push(`${escapeText(s.path)}  ${s.rows.length} tool call(s)`);
        const t = new Table({
          head: ['call id', 'tool', 'prompt', 'called', 'answered', 'status'],
          style: { head: [], border: [] },
          chars: NO_ROW_LINES,
          colWidths: [22, Math.max(16, w - 22 - 8 - 26 - 26 - 14 - 7), 8, 26, 26, 14],
        });
        for (const r of s.rows) {
          const answered = r.result
            ? where(r.result)
            : r.logTerminal
              ? `${r.logTerminal.status} at ${where(r.logTerminal)}`
              : '';
          const called = r.call ? where(r.call) : r.logCall ? where(r.logCall) : '';
          t.push([
            wrapText(escapeText(r.id), 20),
            wrapText(escapeText(r.name + (r.mutating ? ' *' : '')), Math.max(14, w - 22 - 8 - 26 - 26 - 14 - 9)),
            r.promptIndex ?? '',
            wrapText(called, 24),
            wrapText(answered, 24),
            r.status,
          ]);
        }
        out.push(t.toString(), '');
      }
      out.push('* the tool can change files or run commands');
      writeOutput(`${out.join('\n')}\n`, output, io.stdout);
    },
  };
}
