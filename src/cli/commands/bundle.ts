/** `bundle <path..> -o <out>`: a BagIt 1.0 evidence bag (zip, tar, tar.gz or directory) with a custody statement. */
import { escapeText } from '../../report/escape.js';
import { UsageError } from '../../errors.js';
import { parseFormatHint, useColor } from '../options.js';
import { colors } from '../../report/ansi.js';
import { opt, type CommandModule } from '../spec.js';

export const bundleModule: CommandModule = {
  async run(args, io) {
    const out = opt.str(args, 'output');
    if (out === undefined)
      throw new UsageError('bundle: give the bag to write with -o BAG (.zip, .tar.gz, .tgz, .tar, or a new directory)');
    const formatHint = parseFormatHint(opt.str(args, 'format-hint'));
    const signKey = opt.str(args, 'sign-key');
    const keyId = opt.str(args, 'key-id');
    const baggingDate = opt.str(args, 'bagging-date');
    const common = {
      ...(formatHint !== undefined ? { formatHint } : {}),
      out,
      redact: opt.bool(args, 'redact') ?? false,
      redactPatterns: opt.list(args, 'redact-pattern'),
      force: opt.bool(args, 'force') ?? false,
      ...(signKey !== undefined ? { signKey } : {}),
      ...(keyId !== undefined ? { keyId } : {}),
      ...(baggingDate !== undefined ? { baggingDate } : {}),
    };
    const paths = opt.posList(args, 'paths');
    const fromStore = opt.str(args, 'from-store');
    const session = opt.str(args, 'session');
    const at = opt.num(args, 'at');
    const fromLines: string[] = [];
    let r: Awaited<ReturnType<typeof import('../../engine/bundle.js').runBundle>>;
    if (fromStore !== undefined) {
      if (paths.length) throw new UsageError('bundle: give either paths or --from-store, not both');
      if (session === undefined) throw new UsageError('bundle --from-store: give the session with --session ID');
      if (at !== undefined && (!Number.isInteger(at) || at < 1))
        throw new UsageError(`--at ${at}: expected a capture number (1, 2, …)`);
      const { runBundleFromStore } = await import('../../engine/bundle-from-store.js');
      const s = await runBundleFromStore({ ...common, store: fromStore, session, ...(at !== undefined ? { at } : {}) });
      r = s;
      fromLines.push(
        `from capture ${s.capture.seq} (${s.capture.run}, ${s.capture.status}) of ` +
          escapeText(s.capture.session.display),
      );
      for (const p of s.skipped) fromLines.push(`not recreated from the store: ${escapeText(p)} (not a regular file)`);
      if (s.hint !== undefined) io.stderr(`session-audit: note: ${escapeText(s.hint)}\n`);
    } else {
      if (session !== undefined || at !== undefined) throw new UsageError('--session and --at need --from-store');
      if (!paths.length) throw new UsageError('bundle: give the paths to bundle (or --from-store DIR --session ID)');
      // Loaded on use: the bag writer is not part of every command's start-up.
      const { runBundle } = await import('../../engine/bundle.js');
      r = await runBundle({ paths, ...common });
    }
    const c = colors(useColor(opt.bool(args, 'color'), io, false));
    const lines = [
      c.bold(
        `Bundled ${r.sessions} session${r.sessions === 1 ? '' : 's'}` +
          `${r.homes ? ` and ${r.homes} agent home${r.homes === 1 ? '' : 's'}` : ''}, ${r.files} payload ` +
          `file${r.files === 1 ? '' : 's'} (${r.bytes} bytes) into ${escapeText(r.out)} (${r.format}).`,
      ),
      `manifest-sha256.txt sha256: ${r.manifestSha256}`,
      ...fromLines,
    ];
    if (r.redactions) {
      const total = Object.values(r.redactions).reduce((a, b) => a + b, 0);
      lines.push(
        `Redacted ${total} secret${total === 1 ? '' : 's'}${
          total
            ? `: ${Object.entries(r.redactions)
                .map(([k, n]) => `${k} ${n}`)
                .join(', ')}`
            : ''
        }.`,
      );
    }
    for (const n of r.notArchived) lines.push(`not archived: ${escapeText(n.bagPath)}: ${escapeText(n.reason)}`);
    io.setExitCode(0);
    io.stdout(`${lines.join('\n')}\n`);
  },
};
