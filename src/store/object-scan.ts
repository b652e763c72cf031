/**
 * `verify --store`'s pass over objects/: every piece re-hashed against its name (a stray entry, a piece that cannot
 * be read, a piece whose bytes do not hash to its name are findings), and the pieces no record names.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { byteOrder } from '../model/order.js';
import { streamFile } from '../read/files.js';
import { ReadError } from '../read/open-regular.js';
import type { StoreProblem } from './chain-checks.js';
import { objectsDir } from './layout.js';

export interface ObjectScan {
  /** Pieces whose bytes hash to their name, with their size. */
  good: Map<string, number>;
  /** Pieces that cannot be read or do not hash to their name. */
  bad: Set<string>;
  objects: number;
  bytes: number;
}

export function scanObjects(store: string, problems: StoreProblem[]): ObjectScan {
  const out: ObjectScan = { good: new Map(), bad: new Set(), objects: 0, bytes: 0 };
  const dir = objectsDir(store);
  for (const shard of existsSync(dir) ? readdirSync(dir).sort(byteOrder) : []) {
    const sub = join(dir, shard);
    if (!lstatSync(sub).isDirectory()) {
      problems.push({ code: 'BUNDLE_FILE_EXTRA', place: `objects/${shard}`, message: 'not an object directory' });
      continue;
    }
    for (const name of readdirSync(sub).sort(byteOrder)) {
      const place = `objects/${shard}/${name}`;
      if (!/^[0-9a-f]{64}$/.test(name) || name.slice(0, 2) !== shard) {
        problems.push({ code: 'BUNDLE_FILE_EXTRA', place, message: 'not named by a sha256 in its directory' });
        continue;
      }
      out.objects++;
      try {
        const r = streamFile(join(sub, name), () => {}, { pinned: true });
        out.bytes += r.size;
        if (r.sha256 === name) out.good.set(name, r.size);
        else {
          out.bad.add(name);
          problems.push({
            code: 'BUNDLE_MANIFEST_MISMATCH',
            place,
            message: `its bytes hash to ${r.sha256}, not to its name: the stored piece was altered or damaged`,
          });
        }
      } catch (e) {
        if (!(e instanceof ReadError)) throw e;
        out.bad.add(name);
        problems.push({ code: 'BUNDLE_FILE_MISSING', place, message: `cannot be read (${e.message})` });
      }
    }
  }
  return out;
}

/** One finding for the pieces no record names (how many, their bytes, the first few). */
export function orphanObjects(scan: ObjectScan, named: ReadonlySet<string>, problems: StoreProblem[]): void {
  const orphans = [...scan.good.keys(), ...scan.bad].filter((p) => !named.has(p)).sort(byteOrder);
  if (!orphans.length) return;
  const bytes = orphans.reduce((n, p) => n + (scan.good.get(p) ?? 0), 0);
  problems.push({
    code: 'STORE_ORPHAN_OBJECT',
    place: `objects/${orphans[0]!.slice(0, 2)}/${orphans[0]}`,
    message:
      `${orphans.length === 1 ? 'this stored piece' : `this and ${orphans.length - 1} other stored piece(s)`}, ` +
      `${bytes} bytes, are named by no capture record: a run killed before their record, a session left for the ` +
      'next run, or records that were removed',
  });
}
