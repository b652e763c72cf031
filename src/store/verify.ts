/**
 * `verify --store`: every capture record read and its place in the chain checked (numbered from 1 without a gap,
 * each naming its predecessor's hash, signed when a key is given), every object re-hashed against its name, and
 * every file version every record names rebuilt from its pieces and compared with its recorded digest and size.
 * Nothing is trusted from an earlier run: each problem is a finding naming the record, the object or the file.
 * head.json and each record's claims about its session's previous one are checked by chain-checks.ts; the versions
 * are rebuilt by version-hasher.ts.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { verifyEnvelope } from '../bundle/dsse.js';
import { byteOrder } from '../model/order.js';
import { streamFile } from '../read/files.js';
import { ReadError } from '../read/open-regular.js';
import { checkGrowth, checkHead, type StoreProblem } from './chain-checks.js';
import { captureName, objectsDir } from './layout.js';
import { listCaptureFiles, readCaptureFile, readMarker } from './open.js';
import { CAPTURE_PAYLOAD_TYPE, decodeRecord, type CaptureRecord } from './record.js';
import { VersionHasher } from './version-hasher.js';

export interface StoreVerification {
  problems: StoreProblem[];
  records: number;
  objects: number;
  objectBytes: number;
  versions: number;
  sessions: number;
  signed: number;
}

export function verifyStore(store: string, key: KeyObject | undefined): StoreVerification {
  const problems: StoreProblem[] = [];
  const out: StoreVerification = {
    problems,
    records: 0,
    objects: 0,
    objectBytes: 0,
    versions: 0,
    sessions: 0,
    signed: 0,
  };
  const marker = readMarker(store);
  if (marker !== undefined) problems.push({ code: 'BUNDLE_INVALID', place: 'store.json', message: marker });

  // Objects: each one's bytes must hash to its name.
  const good = new Map<string, number>();
  const bad = new Set<string>();
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
        out.objectBytes += r.size;
        if (r.sha256 === name) good.set(name, r.size);
        else {
          bad.add(name);
          problems.push({
            code: 'BUNDLE_MANIFEST_MISMATCH',
            place,
            message: `its bytes hash to ${r.sha256}, not to its name: the stored piece was altered or damaged`,
          });
        }
      } catch (e) {
        if (!(e instanceof ReadError)) throw e;
        bad.add(name);
        problems.push({ code: 'BUNDLE_FILE_MISSING', place, message: `cannot be read (${e.message})` });
      }
    }
  }

  // Records: the chain, then every file version they name.
  let expected = 1;
  let prev: string | null = null;
  const sessions = new Set<string>();
  const versions = new VersionHasher(store);
  const hashes = new Map<number, { hash: string; place: string }>();
  /** The latest record of each session so far. */
  const latest = new Map<string, CaptureRecord>();
  let unsignedWithKey = 0;
  let signedNoKey = 0;
  for (const name of listCaptureFiles(store)) {
    const place = `captures/${name}`;
    let c: ReturnType<typeof readCaptureFile>;
    try {
      c = readCaptureFile(store, name);
    } catch (e) {
      problems.push({ code: 'BUNDLE_FILE_MISSING', place, message: `cannot be read (${(e as Error).message})` });
      prev = null;
      expected++;
      continue;
    }
    out.records++;
    let record: CaptureRecord;
    let signed = false;
    try {
      const d = decodeRecord(c.bytes);
      record = d.record;
      if (d.envelope) {
        signed = true;
        out.signed++;
        if (!key) signedNoKey++;
        else if (verifyEnvelope(d.envelope, key, CAPTURE_PAYLOAD_TYPE).valid === 0)
          problems.push({
            code: 'BUNDLE_SIGNATURE_INVALID',
            place,
            message: 'its DSSE signature does not verify with the given key',
          });
      }
    } catch (e) {
      problems.push({ code: 'BUNDLE_INVALID', place, message: `not a valid capture record: ${(e as Error).message}` });
      prev = c.hash;
      expected++;
      continue;
    }
    if (key && !signed) unsignedWithKey++;
    if (record.seq !== expected || name !== captureName(record.seq)) {
      problems.push({
        code: 'BUNDLE_INVALID',
        place,
        message:
          record.seq !== expected
            ? `capture ${record.seq} where capture ${expected} was expected: a record was removed, added or reordered`
            : `capture ${record.seq} is stored under the wrong name`,
      });
    }
    if (record.prev !== prev)
      problems.push({
        code: 'BUNDLE_INVALID',
        place,
        message:
          prev === null && expected > 1
            ? 'its predecessor could not be read, so the chain cannot be checked here'
            : `names ${record.prev ?? 'no predecessor'} as its predecessor's hash, but the record before it hashes ` +
              `to ${prev ?? 'nothing (it is the first)'}: a record was edited, removed or inserted`,
      });
    prev = c.hash;
    expected = record.seq + 1;
    hashes.set(record.seq, { hash: c.hash, place });
    sessions.add(record.session.key);
    checkGrowth(record, latest.get(record.session.key), place, problems);
    latest.set(record.session.key, record);
    for (const f of record.files) {
      if (f.type !== 'file' || f.pieces === undefined || f.sha256 === undefined) continue;
      const missing = f.pieces.filter((p) => !good.has(p) && !bad.has(p));
      if (missing.length) {
        problems.push({
          code: 'BUNDLE_FILE_MISSING',
          place: `${place}: ${f.path}`,
          message:
            `${missing.length} stored piece(s) of this version are missing ` +
            `(first: objects/${missing[0]!.slice(0, 2)}/${missing[0]})`,
        });
        continue;
      }
      if (f.pieces.some((p) => bad.has(p))) {
        problems.push({
          code: 'BUNDLE_MANIFEST_MISMATCH',
          place: `${place}: ${f.path}`,
          message: 'a stored piece of this version is damaged (see the object finding)',
        });
        continue;
      }
      const v = versions.of(f.pieces);
      out.versions++;
      if (v.sha256 !== f.sha256 || v.size !== f.size)
        problems.push({
          code: 'BUNDLE_MANIFEST_MISMATCH',
          place: `${place}: ${f.path}`,
          message:
            `its pieces make ${v.size} bytes hashing to ${v.sha256}, the record says ${f.size} bytes hashing to ` +
            `${f.sha256}`,
        });
    }
  }
  out.sessions = sessions.size;
  checkHead(store, hashes, expected - 1, problems);
  if (signedNoKey)
    problems.push({
      code: 'BUNDLE_UNVERIFIED',
      severity: 'warning',
      place: 'captures',
      message: `${signedNoKey} capture record(s) are signed but no --key was given: signatures not checked`,
    });
  if (unsignedWithKey)
    problems.push({
      code: 'BUNDLE_SIGNATURE_INVALID',
      place: 'captures',
      message: `${unsignedWithKey} capture record(s) are not signed, and a key was given`,
    });
  return out;
}
