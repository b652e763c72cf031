/**
 * What SECRET_IN_SESSION costs: the check itself (src/checks/secrets.ts, as the engine runs it) fed every record
 * of a log, timed against the same loop without it (reading and JSON.parse only). In-process, so the figure is
 * the check's own work, not start-up or rendering.
 *
 *   node dist/scripts/bench/secret-cost.js <file.jsonl>   # prints one JSON line
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { secrets } from '../../src/checks/secrets.js';
import type { CheckContext } from '../../src/checks/define.js';

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
}

/** Calls `each` with every line of the file and its byte offset (4 MiB reads). */
function eachLine(file: string, each: (line: string, offset: number, n: number) => void): number {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
  let rest = Buffer.alloc(0);
  let offset = 0;
  let n = 0;
  try {
    for (let got = readSync(fd, buf, 0, buf.length, null); got > 0; got = readSync(fd, buf, 0, buf.length, null)) {
      const data = rest.length ? Buffer.concat([rest, buf.subarray(0, got)]) : buf.subarray(0, got);
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

function pass(file: string, withCheck: boolean): { seconds: number; records: number; findings: number; bytes: number } {
  let findings = 0;
  const ctx = { emit: () => void findings++ } as unknown as CheckContext<'SECRET_IN_SESSION'>;
  const run = secrets.create(ctx);
  let records = 0;
  const t0 = process.hrtime.bigint();
  const bytes = eachLine(file, (line, byteOffset, n) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return;
    }
    records++;
    if (withCheck)
      run.record?.({ file: 'log.jsonl', kind: 'log', record: { line: n, byteOffset, byteLength: line.length, value } });
  });
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, records, findings, bytes };
}

export function secretCost(file: string, repeat = 2): SecretCost {
  let parse = Infinity;
  let check = Infinity;
  let last = { records: 0, findings: 0, bytes: 0 };
  for (let k = 0; k < repeat; k++) {
    parse = Math.min(parse, pass(file, false).seconds);
    const w = pass(file, true);
    check = Math.min(check, w.seconds);
    last = w;
  }
  const own = Math.max(check - parse, 1e-9);
  return {
    bytes: last.bytes,
    records: last.records,
    parseSeconds: Math.round(parse * 1000) / 1000,
    withCheckSeconds: Math.round(check * 1000) / 1000,
    checkSeconds: Math.round(own * 1000) / 1000,
    checkMbPerSecond: Math.round((last.bytes / 1024 / 1024 / own) * 10) / 10,
    findings: last.findings,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: secret-cost.js <file.jsonl>');
  process.stdout.write(`${JSON.stringify(secretCost(file))}\n`);
}
