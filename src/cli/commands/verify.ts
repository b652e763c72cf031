/** `verify <bag>`: a conforming BagIt validator plus custody, signature and append-only checks. */
import { fails } from '../../engine/report.js';
import { renderJson } from '../../report/json.js';
import { renderTable, formatLocation } from '../../report/table.js';
import { escapeText } from '../../report/escape.js';
import { EXIT } from '../../errors.js';
import { checkOutputFile, writeOutput } from '../../engine/output.js';
import { parseFailOn, parseFormat, useColor } from '../options.js';
import { opt, type CommandModule, type ParsedArgs } from '../spec.js';
import { UsageError } from '../../errors.js';
import type { Io } from '../io.js';
import { provenanceLines, recordedLines } from '../../engine/verdict.js';
type FailOn = ReturnType<typeof parseFailOn>;

const FORMATS = ['table', 'json'] as const;

export const verifyModule: CommandModule = {
  async run(args, io) {
    const format = parseFormat(opt.str(args, 'format') ?? 'table', FORMATS);
    const failOn = parseFailOn(opt.str(args, 'fail-on') ?? 'error');
    const bag = opt.pos(args, 'bag') as string | undefined;
    const against = opt.str(args, 'against');
    const key = opt.str(args, 'key');
    const store = opt.str(args, 'store');
    if (store !== undefined) {
      if (bag !== undefined || against !== undefined)
        throw new UsageError('verify --store: give no bag and no --against (the store is what is verified)');
      return verifyStoreCommand(args, io, store, key, format, failOn);
    }
    if (bag === undefined) throw new UsageError('verify: give the bag to verify (or --store DIR)');
    const inputs = [bag, ...(against !== undefined ? [against] : [])];
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, inputs);
    const { runVerify } = await import('../../engine/verify.js');
    const { report, contents, proofs } = await runVerify({
      bag,
      ...(key !== undefined ? { key } : {}),
      ...(against !== undefined ? { against } : {}),
    });
    let text: string;
    if (format === 'json') text = renderJson(report);
    else {
      text = renderTable(report, {
        color: useColor(opt.bool(args, 'color'), io, output !== undefined),
        width: io.columns,
      });
      // The verdict (engine/verdict.ts) says what was proven: the bag's own findings and its signature decide it,
      // and what differs on the live side is said of the live session.
      const verdict = report.verdict!;
      if (contents) {
        const payload = [...contents.members.values()].filter((m) => m.name.startsWith('data/'));
        const files = `${payload.length} payload file${payload.length === 1 ? '' : 's'}`;
        text +=
          `Bag ${escapeText(bag)} (${contents.kind}): ${files}, ` +
          `${payload.reduce((n, m) => n + m.size, 0)} bytes: ${escapeText(verdict.text)}.\n`;
        if (verdict.provenance)
          for (const line of provenanceLines(verdict.provenance, verdict.proven)) text += `${escapeText(line)}\n`;
        if (contents.archiveSha256) text += `archive sha256: ${contents.archiveSha256}\n`;
      }
      if (proofs && against !== undefined && verdict.live) {
        for (const p of proofs) {
          // A file session is shown by its file: its one file is not repeated after it.
          const where = p.session.endsWith(`/${p.file}`) || p.session === p.file ? p.session : `${p.session}/${p.file}`;
          text += `  ${escapeText(where)}: ${escapeText(p.text)}\n`;
        }
        const sessions = new Set(report.sessions.filter((s) => s.path !== bag).map((s) => s.path)).size;
        text +=
          `Live session${sessions === 1 ? '' : 's'} under ${escapeText(against)}: ` +
          `${escapeText(verdict.live.text)}.\n`;
      }
    }
    finish(report, failOn, text, output, io);
  },
};

async function verifyStoreCommand(
  args: ParsedArgs,
  io: Io,
  store: string,
  key: string | undefined,
  format: (typeof FORMATS)[number],
  failOn: FailOn,
): Promise<void> {
  const outputFlag = opt.str(args, 'output');
  const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, [store]);
  const { runStoreVerify } = await import('../../engine/archive.js');
  const { report, verification: v } = runStoreVerify(store, key);
  let text: string;
  if (format === 'json') text = renderJson(report);
  else {
    // A clean store is its verdict alone: no empty table of findings before it, and no count of bag files.
    text = report.findings.length
      ? renderTable(report, {
          color: useColor(opt.bool(args, 'color'), io, output !== undefined),
          width: io.columns,
          summary: false,
        })
      : '';
    const verdict = report.verdict!;
    text +=
      `Store ${escapeText(store)}: ${v.records} capture records (${v.signed} signed) of ${v.sessions} sessions, ` +
      `${v.versions} file versions rebuilt, ${v.objects} objects (${v.objectBytes} bytes) re-hashed: ` +
      `${escapeText(verdict.text)}.\n`;
    for (const line of recordedLines(verdict.store!)) text += `${escapeText(line)}\n`;
  }
  finish(report, failOn, text, output, io);
}

/** The end of every verify: the exit code the findings call for, each warning on stderr, then the text. */
function finish(
  report: { findings: Parameters<typeof fails>[0] },
  failOn: FailOn,
  text: string,
  output: Parameters<typeof writeOutput>[1],
  io: Io,
): void {
  io.setExitCode(fails(report.findings, failOn) ? EXIT.findings : EXIT.ok);
  for (const f of report.findings) {
    if (f.severity === 'warning')
      io.stderr(
        `session-audit: warning: ${f.code} ${escapeText(formatLocation(f.location))}: ${escapeText(f.message)}\n`,
      );
  }
  writeOutput(text, output, io.stdout);
}
