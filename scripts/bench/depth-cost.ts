/**
 * What the JSON depth pre-scan (src/read/json-depth.ts) costs: every line of a log scanned alone, timed against
 * the reader's own parse of the same lines (UTF-8 check, pre-scan, JSON.parse, repeated keys: parseBytes). And
 * the worst case: lines whose strings hold more opening brackets than the limit, so that the full string-aware
 * scan runs on every one of them. In-process, so the figures are the scan's own work.
 *
 *   node dist/scripts/bench/depth-cost.js <file.jsonl>   # prints one JSON line
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { MAX_JSON_DEPTH } from '../../src/model/records.js';
import { parseBytes } from '../../src/read/json-bytes.js';
import { tooDeep } from '../../src/read/json-depth.js';

export interface DepthCost {
  /** The bytes measured: the log's first 128 MiB at most. */
  bytes: number;
  lines: number;
  /** The pre-scan alone over every line, and the reader's whole parse (pre-scan included). */
  scanSeconds: number;
  parseSeconds: number;
  /** The pre-scan's share of the parse. */
  scanShare: number;
  /** Lines that hold more opening brackets than the limit (the full scan runs on them). */
  fullScans: number;
  /** Worst case: the same number of bytes in lines of bracket-filled strings. */
  worstScanMbPerSecond: number;
  worstParseMbPerSecond: number;
}

/** At most this much of the log is measured (its head, to its last whole line): the lines are held in memory. */
const MAX_BYTES = 128 * 1024 * 1024;

function head(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(MAX_BYTES);
    let n = 0;
    for (let got = 1; got > 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    const b = buf.subarray(0, n);
    return n === buf.length ? b.subarray(0, b.lastIndexOf(10) + 1) : b;
  } finally {
    closeSync(fd);
  }
}

function linesOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, start)) {
    out.push(bytes.subarray(start, nl));
    start = nl + 1;
  }
  return out;
}

const time = (f: () => void, repeat: number): number => {
  let best = Infinity;
  for (let k = 0; k < repeat; k++) {
    const t0 = process.hrtime.bigint();
    f();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  return best;
};

const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

export function depthCost(file: string, repeat = 2): DepthCost {
  const bytes = head(file);
  const lines = linesOf(bytes);
  let fullScans = 0;
  const scan = time(() => {
    for (const l of lines) tooDeep(l);
  }, repeat);
  const parse = time(() => {
    for (const l of lines) parseBytes(l);
  }, repeat);
  for (const l of lines) {
    let n = 0;
    for (const c of [0x7b, 0x5b])
      for (let i = l.indexOf(c); i !== -1 && n <= MAX_JSON_DEPTH; i = l.indexOf(c, i + 1)) n++;
    if (n > MAX_JSON_DEPTH) fullScans++;
  }
  // Worst case: 64 KiB lines of a tool output full of JSON text (every string escaped, brackets everywhere).
  const text = JSON.stringify({ output: '{"a":[{"b":1}],"c":{"d":[2,3]}}\n'.repeat(2000) });
  const worst = Buffer.from(`${text}\n`.repeat(Math.max(1, Math.floor(bytes.length / (text.length + 1)))));
  const worstLines = linesOf(worst);
  const worstScan = time(() => {
    for (const l of worstLines) tooDeep(l);
  }, repeat);
  const worstParse = time(() => {
    for (const l of worstLines) parseBytes(l);
  }, repeat);
  const mb = worst.length / 1024 / 1024;
  return {
    bytes: bytes.length,
    lines: lines.length,
    scanSeconds: round(scan),
    parseSeconds: round(parse),
    scanShare: round(scan / parse),
    fullScans,
    worstScanMbPerSecond: round(mb / worstScan, 1),
    worstParseMbPerSecond: round(mb / worstParse, 1),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: depth-cost.js <file.jsonl>');
  process.stdout.write(`${JSON.stringify(depthCost(file))}\n`);
}
