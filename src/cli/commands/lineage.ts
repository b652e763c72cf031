/** `lineage <root>`: the fork / subagent / worktree / relocation graph of a sessions root, with sandbox profiles. */
import { lineageView, shownRoot } from '../../lineage/view.js';
import { LINEAGE_FORMATS, LINEAGE_RENDERERS } from '../../report/lineage.js';
import { checkOutputFile, writeOutput } from '../../engine/output.js';
import { outsideSessions } from '../../engine/home-views.js';
import { EXIT } from '../../errors.js';
import { parseFormat, parseFormatHint, parseHome, useColor } from '../options.js';
import { auditTree, lineageCheckIds } from '../../engine/tree.js';
import { notReadLines } from '../../model/not-read.js';
import { opt, type CommandModule } from '../spec.js';

export const lineageModule: CommandModule = {
  run(args, io) {
    const paths = opt.posList(args, 'paths');
    const format = parseFormat(opt.str(args, 'format') ?? 'table', LINEAGE_FORMATS);
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, paths);
    const formatHint = parseFormatHint(opt.str(args, 'format-hint'));
    const home = parseHome(opt.str(args, 'grok-home'));
    const { results, graphs, notRead, homes, found } = auditTree(
      paths,
      // Only the checks whose findings the lineage shows: a lineage is not an audit, and costs less than one.
      { command: 'audit', only: lineageCheckIds() },
      {
        sandboxConfig: opt.list(args, 'sandbox-config'),
        ...(home !== undefined ? { home } : {}),
        ...(formatHint !== undefined ? { formatHint } : {}),
      },
    );
    const findings = results.flatMap((r) => r.findings);
    const audited = new Set(results.map((r) => r.session.path));
    const views = [...graphs].map(([root, g]) => lineageView(shownRoot(root, g, audited), g, findings));
    // What the agents' homes keep that no session's log accounts for (grants of a project, sandbox events).
    const outside = outsideSessions(homes, found);
    const text = LINEAGE_RENDERERS[format](views, {
      width: io.columns,
      color: useColor(opt.bool(args, 'color'), io, output !== undefined),
      outside: outside.views,
    });
    io.setExitCode(outside.errors.length ? EXIT.internal : 0);
    for (const e of outside.errors)
      io.stderr(
        `session-audit: internal error in the home's views of ${e}\n` +
          'This is a bug in session-audit; please report it.\n',
      );
    // A directory that could not be read may hold sessions whose edges are missing here: say so, every format.
    io.stderr(notReadLines(notRead, 'the lineage'));
    writeOutput(text, output, io.stdout);
  },
};
