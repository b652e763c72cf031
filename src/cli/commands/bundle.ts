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
    // Loaded on use: the bag writer is not part of every command's start-up.
    const { runBundle } = await import('../../engine/bundle.js');
    const r = await runBundle({
      paths: opt.posList(args, 'paths'),
      ...(formatHint !== undefined ? { formatHint } : {}),
      out,
      redact: opt.bool(args, 'redact') ?? false,
      redactPatterns: opt.list(args, 'redact-pattern'),
      force: opt.bool(args, 'force') ?? false,
      ...(signKey !== undefined ? { signKey } : {}),
      ...(keyId !== undefined ? { keyId } : {}),
      ...(baggingDate !== undefined ? { baggingDate } : {}),
    });
    const c = colors(useColor(opt.bool(args, 'color'), io, false));
    const lines = [
      c.bold(
        `Bundled ${r.sessions} session${r.sessions === 1 ? '' : 's'}, ${r.files} payload ` +
          `file${r.files === 1 ? '' : 's'} (${r.bytes} bytes) into ${escapeText(r.out)} (${r.format}).`,
      ),
      `manifest-sha256.txt sha256: ${r.manifestSha256}`,
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
