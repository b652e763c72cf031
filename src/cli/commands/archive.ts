/** `archive [roots..] --store DIR`: capture every session into the evidence store; one summary line. */
import { EXIT, UsageError } from '../../errors.js';
import { escapeText } from '../../report/escape.js';
import { colors } from '../../report/ansi.js';
import { parseFormatHint, useColor } from '../options.js';
import { progressBar } from '../progress.js';
import { opt, type CommandModule } from '../spec.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export const archiveModule: CommandModule = {
  async run(args, io) {
    const store = opt.str(args, 'store');
    if (store === undefined) throw new UsageError('archive: give the store with --store DIR (made on first use)');
    const formatHint = parseFormatHint(opt.str(args, 'format-hint'));
    const signKey = opt.str(args, 'sign-key');
    const keyId = opt.str(args, 'key-id');
    const { runArchive } = await import('../../engine/archive.js');
    const bar = progressBar(io, 'archive');
    let r: ReturnType<typeof runArchive>;
    try {
      r = runArchive({
        roots: opt.posList(args, 'roots'),
        store,
        ...(signKey !== undefined ? { signKey } : {}),
        ...(keyId !== undefined ? { keyId } : {}),
        ...(opt.bool(args, 'rehash') ? { rehash: true } : {}),
        ...(formatHint !== undefined ? { formatHint } : {}),
        onProgress: bar.tick,
      });
    } finally {
      bar.end();
    }
    for (const m of r.missing)
      io.stderr(`session-audit: warning: ${escapeText(m)}: no such root now; its sessions are not marked deleted\n`);
    for (const s of r.skipped) io.stderr(`session-audit: note: ${escapeText(s.display)}: not archived: ${s.why}\n`);
    for (const s of r.unstable) io.stderr(`session-audit: warning: ${escapeText(s.display)}: not archived: ${s.why}\n`);
    for (const { session, finding, seq } of r.findings) {
      io.stderr(
        `session-audit: ${finding.code === 'BUNDLE_NOT_APPEND_ONLY' ? 'error' : 'warning'}: ${finding.code} ` +
          `${escapeText(session.display)}: ${escapeText(finding.file)}` +
          `${finding.line !== undefined ? `:${finding.line}` : ''}: ` +
          `${escapeText(finding.message)} (capture ${seq})\n`,
      );
    }
    const line =
      `archive ${escapeText(store)}: sessions ${r.new} new, ${r.changed} changed, ${r.deleted} deleted, ` +
      `${r.unchanged} unchanged${r.unstable.length ? `, ${r.unstable.length} left for the next run` : ''}; ` +
      `${r.stored} bytes stored in ${plural(r.objects, 'new object')} (${r.read} bytes read); ` +
      `${plural(r.records, 'capture record')}${r.findings.length ? `; ${plural(r.findings.length, 'finding')}` : ''}\n`;
    io.stdout(`${colors(useColor(opt.bool(args, 'color'), io, false)).bold(line.trimEnd())}\n`);
    io.setExitCode(r.findings.length ? EXIT.findings : EXIT.ok);
  },
};
