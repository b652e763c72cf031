/**
 * The bare baseline: read the file in 1 MiB chunks, split on newline bytes, JSON.parse every line. No checks,
 * no models: the floor any JSONL auditor pays. Prints records and bytes as JSON on stdout.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const path = process.argv[2]!;
const fd = openSync(path, 'r');
const buf = Buffer.allocUnsafe(1 << 20);
let carry: Buffer | undefined;
let records = 0;
let bytes = 0;
let bad = 0;
const parse = (b: Buffer): void => {
  if (!b.length) return;
  try {
    JSON.parse(b.toString('utf8'));
    records++;
  } catch {
    bad++;
  }
};
for (;;) {
  const n = readSync(fd, buf, 0, buf.length, null);
  if (n === 0) break;
  bytes += n;
  let chunk = buf.subarray(0, n);
  let start = 0;
  for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
    if (carry) {
      parse(Buffer.concat([carry, chunk.subarray(start, nl)]));
      carry = undefined;
    } else parse(chunk.subarray(start, nl));
    start = nl + 1;
  }
  if (start < n) carry = carry ? Buffer.concat([carry, chunk.subarray(start)]) : Buffer.from(chunk.subarray(start));
  chunk = buf;
}
if (carry) parse(carry);
closeSync(fd);
process.stdout.write(`${JSON.stringify({ records, bad, bytes })}\n`);
process.stderr.write(`MAXRSS_KB ${process.resourceUsage().maxRSS}\n`);
