/** `checks [CODE]`: the finding catalog, or one code explained. */
import { UsageError } from '../../errors.js';
import { colors } from '../../report/ansi.js';
import { type Column, droppedNote, renderGrid } from '../../report/layout.js';
import { wrapText } from '../../report/wrap.js';
import { loadCatalog } from '../catalog-data.js';
import { useColor } from '../color.js';
import { opt, type CommandModule } from '../spec.js';

const COLUMNS: Column[] = [
  { head: 'code', kind: 'token' },
  { head: 'severity', kind: 'token' },
  { head: 'check', kind: 'token', drop: 1 },
  { head: 'meaning', kind: 'text', min: 24 },
];

export const checksModule: CommandModule = {
  async run(args, io) {
    const format = opt.str(args, 'format') ?? 'table';
    if (format !== 'table' && format !== 'json')
      throw new UsageError(`--format ${JSON.stringify(format)}: expected table or json`);
    const all = await loadCatalog();
    const code = opt.pos(args, 'code') as string | undefined;
    const c = colors(useColor(opt.bool(args, 'color'), io, false));
    io.setExitCode(0);
    if (code !== undefined) {
      const info = all.find((e) => e.code === code.toUpperCase());
      if (!info) throw new UsageError(`${code}: unknown finding code (run \`session-audit checks\` for the list)`);
      io.stdout(
        format === 'json'
          ? `${JSON.stringify(info, null, 2)}\n`
          : `${c.bold(info.code)} (${info.severity}, check ${info.check})\n${info.title}\n\n` +
              `${wrapText(info.help, Math.min(100, io.columns))}\n`,
      );
      return;
    }
    if (format === 'json') {
      io.stdout(`${JSON.stringify(all, null, 2)}\n`);
      return;
    }
    const width = Math.max(40, io.columns);
    const { text, layout } = renderGrid(
      COLUMNS,
      all.map((e) => [e.code, e.severity, e.check, e.title]),
      width,
      { head: c.bold, rule: c.grey },
    );
    io.stdout(
      `${text}${droppedNote(layout, width, '--format json')}` +
        `${wrapText(`${all.length} codes. \`session-audit checks CODE\` explains one.`, width)}\n`,
    );
  },
};
