/** `lineage <root>`: the fork / subagent / worktree / relocation graph of a sessions root, with sandbox profiles. */
import type { Argv, CommandModule } from 'yargs';
import { lineageView } from '../../lineage/view.js';
import { LINEAGE_FORMATS, LINEAGE_RENDERERS } from '../../report/lineage.js';
import type { Io } from '../io.js';
import { checkOutputPath, writeOutput } from '../../engine/output.js';
import { parseFormat, parseFormatHint, parseHome, withFormatHint } from '../options.js';
import { auditTree } from '../../engine/tree.js';

type Args = {
  paths: string[];
  format: string;
  output?: string;
  'sandbox-config': string[];
  'grok-home'?: string;
  'format-hint'?: string;
};

export function lineageCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'lineage <paths..>',
    describe: 'the fork/subagent/worktree graph of a sessions root, with sandbox profiles and widened or dropped edges',
    builder: (y: Argv) =>
      withFormatHint(y)
        .positional('paths', { type: 'string', array: true, demandOption: true })
        .option('format', { alias: 'f', type: 'string', default: 'table', describe: LINEAGE_FORMATS.join(' | ') })
        .option('output', { alias: 'o', type: 'string', describe: 'write to FILE' })
        .option('sandbox-config', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe: 'a sandbox.toml defining custom profiles (repeatable)',
        })
        .option('grok-home', {
          type: 'string',
          describe: 'the grok home whose relocation journals decide between copies',
        }) as unknown as Argv<Args>,
    handler: (argv) => {
      const format = parseFormat(argv.format, LINEAGE_FORMATS);
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, argv.paths);
      const formatHint = parseFormatHint(argv['format-hint']);
      const home = parseHome(argv['grok-home']);
      const { results, graphs } = auditTree(
        argv.paths,
        { command: 'audit' },
        {
          sandboxConfig: argv['sandbox-config'],
          ...(home !== undefined ? { home } : {}),
          ...(formatHint !== undefined ? { formatHint } : {}),
        },
      );
      const findings = results.flatMap((r) => r.findings);
      const shown = (root: string): string =>
        results
          .find((r) => r.session.path && graphs.get(root)?.nodes.some((n) => n.path === r.session.path))
          ?.session.path.split('/')
          .slice(0, -2)
          .join('/') ?? root;
      const views = [...graphs].map(([root, g]) => lineageView(shown(root), g, findings));
      const text = LINEAGE_RENDERERS[format](views);
      writeOutput(text, output, io.stdout);
    },
  };
}
