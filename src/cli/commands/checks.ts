/** `checks [CODE]`: the finding catalog, or one code explained. */
import type { Argv, CommandModule } from 'yargs';
import Table from 'cli-table3';
import { catalog, codeInfo } from '../../checks/catalog.js';
import { UsageError } from '../../errors.js';
import { NO_ROW_LINES } from '../../report/table.js';
import { wrapText } from '../../report/wrap.js';
import type { Io } from '../io.js';

type Args = { code?: string; format: string };

export function checksCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'checks [code]',
    describe: 'list every finding code, or explain one',
    builder: (y: Argv) =>
      y.positional('code', { type: 'string', describe: 'a finding code, e.g. JSONL_TORN_TAIL' }).option('format', {
        alias: 'f',
        type: 'string',
        default: 'table',
        describe: 'table | json',
      }) as unknown as Argv<Args>,
    handler: (argv) => {
      if (argv.format !== 'table' && argv.format !== 'json')
        throw new UsageError(`--format ${JSON.stringify(argv.format)}: expected table or json`);
      if (argv.code !== undefined) {
        const info = codeInfo(argv.code.toUpperCase());
        if (!info)
          throw new UsageError(`${argv.code}: unknown finding code (run \`session-audit checks\` for the list)`);
        io.stdout(
          argv.format === 'json'
            ? `${JSON.stringify(info, null, 2)}\n`
            : `${info.code} (${info.severity}, check ` +
                `${info.check})\n${info.title}\n\n${wrapText(info.help, Math.min(100, io.columns))}\n`,
        );
        return;
      }
      const all = catalog();
      if (argv.format === 'json') {
        io.stdout(`${JSON.stringify(all, null, 2)}\n`);
        return;
      }
      const t = new Table({
        head: ['code', 'severity', 'check', 'meaning'],
        style: { head: [], border: [] },
        chars: NO_ROW_LINES,
        colWidths: [30, 10, 18, Math.max(30, io.columns - 64)],
      });
      for (const e of all) t.push([e.code, e.severity, e.check, wrapText(e.title, Math.max(30, io.columns - 64) - 2)]);
      io.stdout(`${t.toString()}\n${all.length} codes. \`session-audit checks CODE\` explains one.\n`);
    },
  };
}
