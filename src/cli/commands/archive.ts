/** `archive [roots..] --store DIR`: capture every session into the evidence store; one summary line. */
import { EXIT, UsageError } from '../../errors.js';
import { escapeText } from '../../report/escape.js';
import { colors } from '../../report/ansi.js';
import { parseFormatHint, useColor } from '../options.js';
import { progressBar } from '../progress.js';
import { opt, type CommandModule } from '../spec.js';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The summary line's last part: what the index now holds of this run's captures. */
const indexed = (index: { captures: number } | string | undefined): string =>
  typeof index === 'string'
    ? ''
    : index === undefined
      ? '; not indexed (--no-index)'
      : `; ${plural(index.captures, 'capture')} indexed`;

export const archiveModule: CommandModule = {
  async run(args, io) {
    const store = opt.str(args, 'store');
    if (store === undefined) throw new UsageError('archive: give the store with --store DIR (made on first use)');
    const formatHint = parseFormatHint(opt.str(args, 'format-hint'));
    if (opt.bool(args, 'reindex')) {
      if (opt.posList(args, 'roots').length)
        throw new UsageError('archive --reindex: takes no roots (it captures nothing)');
      const { runReindex } = await import('../../engine/archive.js');
      const ib = progressBar(io, 'index');
      let x: ReturnType<typeof runReindex>;
      try {
        x = runReindex(store, ib.tick);
      } finally {
        ib.end();
      }
      io.stdout(
        `archive --reindex ${escapeText(store)}: index rebuilt from ${plural(x.captures, 'capture')}: ` +
          `${plural(x.events, 'event')}, ${plural(x.calls, 'tool call')}, ${plural(x.findings, 'finding')}` +
          `${x.notIndexed ? `; ${x.notIndexed} not indexed (see captures.not_indexed)` : ''}\n`,
      );
      io.setExitCode(EXIT.ok);
      return;
    }
    const signKey = opt.str(args, 'sign-key');
    const keyId = opt.str(args, 'key-id');
    const acknowledgeGap = opt.str(args, 'acknowledge-gap');
    if (acknowledgeGap !== undefined && acknowledgeGap.trim() === '')
      throw new UsageError('--acknowledge-gap: say why (it is recorded in the chain for good)');
    const { runArchive } = await import('../../engine/archive.js');
    const bar = progressBar(io, 'archive');
    // The index is brought up to date after the capture: its own bar, once the capture's is gone.
    const ib = progressBar(io, 'index');
    let indexing = false;
    let r: ReturnType<typeof runArchive>;
    try {
      r = runArchive({
        roots: opt.posList(args, 'roots'),
        store,
        ...(signKey !== undefined ? { signKey } : {}),
        ...(keyId !== undefined ? { keyId } : {}),
        ...(acknowledgeGap !== undefined ? { acknowledgeGap } : {}),
        ...(opt.bool(args, 'rehash') ? { rehash: true } : {}),
        ...(formatHint !== undefined ? { formatHint } : {}),
        ...(opt.bool(args, 'index') === false ? { index: false } : {}),
        onProgress: bar.tick,
        onIndexProgress: (done, total) => {
          if (!indexing) bar.end();
          indexing = true;
          ib.tick(done, total);
        },
      });
    } finally {
      bar.end();
      ib.end();
    }
    if (r.gap)
      io.stderr(
        `session-audit: warning: STORE_GAP gap record ${r.gap.seq} written: ${escapeText(r.gap.found)}; ` +
          `acknowledged by ${escapeText(r.gap.by)}: ${escapeText(JSON.stringify(r.gap.reason))}\n`,
      );
    for (const m of r.missing)
      io.stderr(`session-audit: warning: ${escapeText(m)}: no such root now; its sessions are not marked deleted\n`);
    for (const s of r.skipped)
      io.stderr(
        `session-audit: ${s.unreadable ? 'error' : 'note'}: ${escapeText(s.display)}: not archived: ${s.why}\n`,
      );
    for (const s of r.unstable) io.stderr(`session-audit: warning: ${escapeText(s.display)}: not archived: ${s.why}\n`);
    for (const u of r.unreadable) {
      // A file session is shown by its file: its one file is not named twice.
      const where = u.display.endsWith(`/${u.path}`) ? u.display : `${u.display}/${u.path}`;
      io.stderr(`session-audit: error: ${escapeText(where)}: ${u.why}: its bytes are not kept\n`);
    }
    for (const { session, finding, seq } of r.findings) {
      io.stderr(
        `session-audit: ${finding.code === 'BUNDLE_NOT_APPEND_ONLY' ? 'error' : 'warning'}: ${finding.code} ` +
          `${escapeText(session.display)}: ${escapeText(finding.file)}` +
          `${finding.line !== undefined ? `:${finding.line}` : ''}: ` +
          `${escapeText(finding.message)} (capture ${seq})\n`,
      );
    }
    // The captures are kept; a search would answer from an index behind them (it says so): cron must hear of it.
    if (typeof r.index === 'string')
      io.stderr(
        `session-audit: error: the index was not updated (${escapeText(r.index)}); the captures are kept; run ` +
          'archive --reindex when it can be written\n',
      );
    else if (r.index?.notIndexed)
      io.stderr(
        `session-audit: warning: ${plural(r.index.notIndexed, 'capture')} not indexed (captures.not_indexed)\n`,
      );
    const line =
      `archive ${escapeText(store)}: sessions ${r.new} new, ${r.changed} changed, ${r.deleted} deleted, ` +
      `${r.unchanged} unchanged${r.unstable.length ? `, ${r.unstable.length} left for the next run` : ''}; ` +
      `${r.stored} bytes stored in ${plural(r.objects, 'new object')} (${r.read} bytes read); ` +
      `${plural(r.records, 'capture record')}${r.findings.length ? `; ${plural(r.findings.length, 'finding')}` : ''}` +
      `${indexed(r.index)}\n`;
    io.stdout(`${colors(useColor(opt.bool(args, 'color'), io, false)).bold(line.trimEnd())}\n`);
    const unread = r.unreadable.length || r.skipped.some((s) => s.unreadable) || typeof r.index === 'string';
    io.setExitCode(r.findings.length || unread ? EXIT.findings : EXIT.ok);
  },
};
