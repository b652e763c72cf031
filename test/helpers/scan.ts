/** Run the tolerant reader over bytes, in chunks of a given size, and collect what it reports. */
import { JsonlScanner } from '../../src/read/jsonl.js';
import type { JsonlOptions } from '../../src/model/records.js';
import type { Damage, JsonlRecord, JsonlStats } from '../../src/model/records.js';

export interface ScanResult {
  records: JsonlRecord[];
  damage: Damage[];
  stats: JsonlStats;
}

export function scan(input: string | Buffer, options: JsonlOptions = {}, chunkSize = 1 << 20): ScanResult {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const records: JsonlRecord[] = [];
  const damage: Damage[] = [];
  const s = new JsonlScanner(
    (r) => records.push(r),
    (d) => damage.push(d),
    options,
  );
  // One reused buffer, overwritten after each push, as the file reader does.
  const shared = Buffer.alloc(chunkSize);
  for (let i = 0; i < bytes.length; i += chunkSize) {
    const n = bytes.copy(shared, 0, i, Math.min(bytes.length, i + chunkSize));
    s.push(shared.subarray(0, n));
    shared.fill(0x58);
  }
  return { records, damage, stats: s.end() };
}

export const codes = (r: ScanResult): string[] => r.damage.map((d) => d.code);
