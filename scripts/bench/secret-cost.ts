/**
 * What SECRET_IN_SESSION costs: the check itself (src/checks/secrets.ts) fed every record of a Grok log, timed
 * against the same loop without it (reading and JSON.parse only). Two ways: as the audit runs it now (the native
 * pass over each block's raw bytes, the lines it names parsed again and scanned, the streamed text's junctions on
 * every record: both threads' work added up), and as it ran before, every string of every record with a junction at
 * every pointer (`everyString`). In-process, so the figure is the check's own work, not start-up or rendering.
 *
 *   node dist/scripts/bench/secret-cost.js <file.jsonl>   # prints one JSON line
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { secretScan, type JunctionMode } from '../../src/checks/secrets.js';
import type { CheckContext } from '../../src/checks/define.js';
import { FORMATS } from '../../src/formats/registry.js';
import type { FormatModule } from '../../src/formats/types.js';
import { rawLiterals } from '../../src/secrets/raw-literals.js';

export interface SecretCost {
  bytes: number;
  records: number;
  /** Reading and parsing alone, then with the check. */
  parseSeconds: number;
  withCheckSeconds: number;
  /** The check's own time, and its throughput over the log's bytes. */
  checkSeconds: number;
  checkMbPerSecond: number;
  findings: number;
  /** The scan as it ran before: every string of every record (its own time, its findings). */
  everyStringSeconds: number;
  everyStringFindings: number;
  /** Whether the native pass ran (else every line is scanned), and the lines it named. */
  native: boolean;
  candidateLines: number;
}

/** Calls `each` with every line of the file and its byte offset (4 MiB reads), `block` with each block first. */
function eachLine(
  file: string,
  each: (line: string, offset: number, n: number) => void,
  block?: (data: Buffer, offset: number) => void,
): number {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
  let rest = Buffer.alloc(0);
  let offset = 0;
  let n = 0;
  try {
    for (let got = readSync(fd, buf, 0, buf.length, null); got > 0; got = readSync(fd, buf, 0, buf.length, null)) {
      const data = rest.length ? Buffer.concat([rest, buf.subarray(0, got)]) : buf.subarray(0, got);
      block?.(data, offset);
      let start = 0;
      for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, start)) {
        each(data.subarray(start, nl).toString('utf8'), offset, ++n);
        offset += nl + 1 - start;
        start = nl + 1;
      }
      rest = Buffer.from(data.subarray(start));
    }
  } finally {
    closeSync(fd);
  }
  return offset;
}

type Pass = 'parse' | 'every' | 'raw';
const GROK = FORMATS.find((f) => f.name === 'grok') as FormatModule;

function pass(file: string, how: Pass): { seconds: number; records: number; findings: number; bytes: number } {
  let findings = 0;
  let candidates = 0;
  const ctx = { emit: () => void findings++ } as unknown as CheckContext<'SECRET_IN_SESSION'>;
  const streamed = GROK.streamedText!;
  const mode: JunctionMode = how === 'every' ? 'every' : { streamed };
  const run = secretScan(ctx, mode);
  // The second thread's share: the lines the native pass names, parsed again and scanned without junctions.
  const second = secretScan(ctx, 'none');
  const raw = how === 'raw' ? rawLiterals() : undefined;
  const offloaded = how === 'raw';
  let records = 0;
  const t0 = process.hrtime.bigint();
  const scanLine = (text: string, byteOffset: number, n: number): void => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    candidates++;
    second.record?.({ file: 'log.jsonl', kind: 'updates', record: { line: n, byteOffset, byteLength: 0, value } });
  };
  const bytes = eachLine(
    file,
    (line, byteOffset, n) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return;
      }
      records++;
      if (how === 'parse') return;
      const record = { line: n, byteOffset, byteLength: line.length, value };
      run.record?.({ file: 'log.jsonl', kind: 'updates', record, ...(offloaded ? { secretsOffloaded: true } : {}) });
      // Without the addon the second thread scans every line.
      if (offloaded && !raw) scanLine(line, byteOffset, n);
    },
    raw
      ? (data, offset) =>
          raw.candidates(data, (s, e) => {
            // The block's unterminated end comes again, whole, at the start of the next one.
            if (e < data.length) scanLine(data.toString('utf8', s, e), offset + s, 0);
          })
      : undefined,
  );
  second.fileEnd?.({ file: 'log.jsonl', kind: 'updates' });
  run.fileEnd?.({
    file: 'log.jsonl',
    kind: 'updates',
    ...(offloaded ? { secretFindings: { list: [], more: 0 } } : {}),
  });
  if (how === 'raw') lastCandidates = candidates;
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, records, findings, bytes };
}
let lastCandidates = 0;

export function secretCost(file: string, repeat = 2): SecretCost {
  let parse = Infinity;
  let check = Infinity;
  let every = Infinity;
  let last = { records: 0, findings: 0, bytes: 0 };
  let everyFindings = 0;
  for (let k = 0; k < repeat; k++) {
    parse = Math.min(parse, pass(file, 'parse').seconds);
    const w = pass(file, 'raw');
    check = Math.min(check, w.seconds);
    last = w;
    const e = pass(file, 'every');
    every = Math.min(every, e.seconds);
    everyFindings = e.findings;
  }
  const own = Math.max(check - parse, 1e-9);
  const ms = (s: number): number => Math.round(s * 1000) / 1000;
  return {
    bytes: last.bytes,
    records: last.records,
    parseSeconds: ms(parse),
    withCheckSeconds: ms(check),
    checkSeconds: ms(own),
    checkMbPerSecond: Math.round((last.bytes / 1024 / 1024 / own) * 10) / 10,
    findings: last.findings,
    everyStringSeconds: ms(Math.max(every - parse, 1e-9)),
    everyStringFindings: everyFindings,
    native: rawLiterals() !== undefined,
    candidateLines: lastCandidates,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: secret-cost.js <file.jsonl>');
  process.stdout.write(`${JSON.stringify(secretCost(file))}\n`);
}
