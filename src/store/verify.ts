/**
 * `verify --store`: every capture record read and its place in the chain checked (numbered from 1 without a gap,
 * each naming its predecessor's hash, signed when a key is given), every object re-hashed against its name, and
 * every file version every record names rebuilt from its pieces and compared with its recorded digest and size.
 * Nothing is trusted from an earlier run: each problem is a finding naming the record, the object or the file.
 */
import { createHash, type Hash, type KeyObject } from 'node:crypto';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { verifyEnvelope } from '../bundle/dsse.js';
import type { BundleCode } from '../checks/bundle-codes.js';
import { byteOrder } from '../model/order.js';
import { readWholeFile, streamFile } from '../read/files.js';
import { ReadError } from '../read/open-regular.js';
import { captureName, headFile, objectPath, objectsDir } from './layout.js';
import { listCaptureFiles, readCaptureFile, readMarker } from './open.js';
import { CAPTURE_PAYLOAD_TYPE, decodeRecord, type CaptureRecord } from './record.js';

export interface StoreProblem {
  code: BundleCode;
  severity?: 'error' | 'warning' | 'note';
  /** Relative to the store: the record, object or file the problem is in. */
  place: string;
  message: string;
}

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

/**
 * The digest of a version from its pieces, sharing work between versions with a common start (a log's captures
 * extend each other): the hash state after each prefix of pieces is kept and copied.
 */
class VersionHasher {
  private readonly states = new Map<string, { hash: Hash; size: number }>();
  constructor(private readonly store: string) {}

  of(pieces: readonly string[]): { sha256: string; size: number } {
    let k = pieces.length;
    let start: { hash: Hash; size: number } | undefined;
    const keys: string[] = [];
    let key = '';
    for (const p of pieces) keys.push((key = createHash('sha256').update(`${key}${p}`).digest('hex')));
    for (; k > 0; k--) {
      start = this.states.get(keys[k - 1]!);
      if (start) break;
    }
    let hash = start ? start.hash.copy() : createHash('sha256');
    let size = start?.size ?? 0;
    for (let i = k; i < pieces.length; i++) {
      size += streamFile(objectPath(this.store, pieces[i]!), (chunk) => hash.update(chunk), { pinned: true }).size;
      this.states.set(keys[i]!, { hash: hash.copy(), size });
      hash = hash.copy();
    }
    return { sha256: hash.digest('hex'), size };
  }
}

/** head.json against the records: the last record was not edited, and none after it was removed. */
function checkHead(
  store: string,
  hashes: ReadonlyMap<number, { hash: string; place: string }>,
  last: number,
  problems: StoreProblem[],
): void {
  let head: { seq?: unknown; sha256?: unknown } | undefined;
  try {
    head = JSON.parse(readWholeFile(headFile(store), 4096, true).bytes.toString('utf8')) as typeof head;
  } catch (e) {
    if (e instanceof ReadError && e.reason === 'ENOENT') head = undefined;
    else {
      problems.push({
        code: 'BUNDLE_INVALID',
        place: 'head.json',
        message: `cannot be read (${(e as Error).message})`,
      });
      return;
    }
  }
  if (!head) {
    if (last > 0)
      problems.push({
        code: 'BUNDLE_FILE_MISSING',
        place: 'head.json',
        message: 'missing: an edit of the last capture record cannot be detected',
      });
    return;
  }
  const seq = Number(head.seq);
  const at = hashes.get(seq);
  if (seq > last)
    problems.push({
      code: 'BUNDLE_FILE_MISSING',
      place: 'head.json',
      message: `names capture ${seq} as the last, but the records end at ${last}: records were removed`,
    });
  else if (seq > 0 && (!at || at.hash !== head.sha256))
    problems.push({
      code: 'BUNDLE_MANIFEST_MISMATCH',
      place: at?.place ?? 'head.json',
      message:
        `hashes to ${at?.hash ?? 'nothing'}, but head.json recorded ${String(head.sha256)}: ` +
        'edited after it was written',
    });
  else if (seq < last)
    problems.push({
      code: 'BUNDLE_UNVERIFIED',
      severity: 'warning',
      place: 'head.json',
      message:
        `names capture ${seq}, the records go on to ${last}: a run was stopped between writing a record and the ` +
        'head (the next run catches up), so the last records are covered by the chain only',
    });
}

/**
 * A record's claims about its predecessor, re-checked: it names the session's previous record, and each log it says
 * grew from N bytes starts with the very pieces of the previous version, which were N bytes (pieces are named by
 * their digest and re-hashed above, so equal piece lists are equal bytes: the proof that the log only grew).
 */
function checkGrowth(
  record: CaptureRecord,
  before: CaptureRecord | undefined,
  place: string,
  problems: StoreProblem[],
): void {
  if ((record.previous ?? null) !== (before?.seq ?? null))
    problems.push({
      code: 'BUNDLE_INVALID',
      place,
      message:
        `names capture ${record.previous ?? 'none'} as the session's previous one, but it is ` +
        `${before?.seq ?? 'none'}`,
    });
  for (const [path, size] of Object.entries(record.grewFrom ?? {})) {
    const now = record.files.find((f) => f.path === path);
    const then = before?.files.find((f) => f.path === path);
    const prefix =
      now?.pieces !== undefined &&
      then?.pieces !== undefined &&
      then.size === size &&
      now.size >= size &&
      then.pieces.every((p, i) => now.pieces![i] === p);
    if (!prefix)
      problems.push({
        code: 'BUNDLE_INVALID',
        place: `${place}: ${path}`,
        message: `says the log grew from the previous capture's ${size} bytes, but the stored versions do not show it`,
      });
  }
}
