/**
 * `verify --store`: every capture record read and its place in the chain checked (numbered from 1 without a gap
 * that no gap record acknowledges, each naming its predecessor's hash, its paths safe to write out, signed when a
 * key is given, and once signed always signed), every object re-hashed against its name (object-scan.ts), and every
 * file version every record names rebuilt from its pieces and compared with its recorded digest and size. Nothing is
 * trusted from an earlier run: each problem is a finding naming the record, the object or the file. head.json is
 * checked against the chain's end (head.ts), each record's claims about its session's previous one by
 * chain-checks.ts; the versions are rebuilt by version-hasher.ts. What the chain recorded (rewritten logs, deleted
 * sessions, acknowledged gaps) is returned for the verdict.
 */
import type { KeyObject } from 'node:crypto';
import { verifyEnvelope } from '../bundle/dsse.js';
import { checkGrowth, type StoreProblem } from './chain-checks.js';
import { unprotected } from './guard.js';
import { chainEnd, readHead } from './head.js';
import { captureName } from './layout.js';
import { orphanObjects, scanObjects } from './object-scan.js';
import { chainStep, listCaptureFiles, readCaptureFile, readMarker } from './open.js';
import {
  CAPTURE_PAYLOAD_TYPE,
  decodeRecord,
  isGap,
  recordProblem,
  type CaptureRecord,
  type ChainRecord,
  type GapRecord,
} from './record.js';
import { VersionHasher } from './version-hasher.js';

export interface StoreVerification {
  problems: StoreProblem[];
  records: number;
  objects: number;
  objectBytes: number;
  versions: number;
  sessions: number;
  signed: number;
  /** The signature of every signed record (and of the head) verified with the given key. */
  keyChecked: boolean;
  /** The key ids the signatures that verified name. */
  keyIds: string[];
  /** What the chain recorded: logs rewritten, sessions deleted, gaps acknowledged. */
  rewrites: Array<{ seq: number; session: string; file: string; line?: number }>;
  deletions: Array<{ seq: number; session: string }>;
  gaps: GapRecord[];
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
    keyChecked: key !== undefined,
    keyIds: [],
    rewrites: [],
    deletions: [],
    gaps: [],
  };
  const marker = readMarker(store);
  if (marker !== undefined) problems.push({ code: 'BUNDLE_INVALID', place: 'store.json', message: marker });
  const open = unprotected(store);
  if (open.length)
    problems.push({
      code: 'STORE_UNPROTECTED',
      place: '.',
      message:
        `${open.slice(0, 3).join('; ')}${open.length > 3 ? `; and ${open.length - 3} more` : ''}: others than its ` +
        'owner could have rewritten the store',
    });

  const scan = scanObjects(store, problems);
  out.objects = scan.objects;
  out.objectBytes = scan.bytes;
  const named = new Set<string>();

  // Records: the chain, then every file version they name.
  let last = 0;
  let prev: string | null = null;
  const sessions = new Set<string>();
  const versions = new VersionHasher(store);
  const hashes = new Map<number, string>();
  const signedBy = new Map<number, boolean>();
  /** The latest record of each session so far. */
  const latest = new Map<string, CaptureRecord>();
  const bySeq = new Map<number, CaptureRecord>();
  let unsignedWithKey = 0;
  let signedNoKey = 0;
  let firstSigned: number | undefined;
  for (const name of listCaptureFiles(store)) {
    const place = `captures/${name}`;
    let c: ReturnType<typeof readCaptureFile>;
    try {
      c = readCaptureFile(store, name);
    } catch (e) {
      problems.push({ code: 'BUNDLE_FILE_MISSING', place, message: `cannot be read (${(e as Error).message})` });
      prev = null;
      last++;
      continue;
    }
    out.records++;
    let record: ChainRecord;
    let signed = false;
    try {
      const d = decodeRecord(c.bytes);
      record = d.record;
      if (d.envelope) {
        signed = true;
        out.signed++;
        if (!key) signedNoKey++;
        else {
          const checked = verifyEnvelope(d.envelope, key, CAPTURE_PAYLOAD_TYPE);
          if (checked.valid === 0)
            problems.push({
              code: 'BUNDLE_SIGNATURE_INVALID',
              place,
              message: 'its DSSE signature does not verify with the given key',
            });
          for (const id of checked.keyIds) if (!out.keyIds.includes(id)) out.keyIds.push(id);
        }
      }
    } catch (e) {
      problems.push({ code: 'BUNDLE_INVALID', place, message: `not a valid capture record: ${(e as Error).message}` });
      prev = c.hash;
      last++;
      continue;
    }
    if (key && !signed) unsignedWithKey++;
    if (signed) firstSigned ??= record.seq;
    else if (firstSigned !== undefined)
      problems.push({
        code: 'BUNDLE_SIGNATURE_INVALID',
        place,
        message:
          `not signed, but the records from capture ${firstSigned} on are: added by someone without the key ` +
          '(archive only ever extends a signed chain with signed records)',
      });
    const step = chainStep(last, record);
    if (step !== undefined) problems.push({ code: 'BUNDLE_INVALID', place, message: step });
    else if (name !== captureName(record.seq))
      problems.push({ code: 'BUNDLE_INVALID', place, message: `capture ${record.seq} is stored under the wrong name` });
    if (record.prev !== prev)
      problems.push({
        code: 'BUNDLE_INVALID',
        place,
        message:
          prev === null && last > 0
            ? 'its predecessor could not be read, so the chain cannot be checked here'
            : `names ${record.prev ?? 'no predecessor'} as its predecessor's hash, but the record before it hashes ` +
              `to ${prev ?? 'nothing (it is the first)'}: a record was edited, removed or inserted`,
      });
    prev = c.hash;
    last = record.seq;
    hashes.set(record.seq, c.hash);
    signedBy.set(record.seq, signed);
    if (isGap(record)) {
      out.gaps.push(record);
      problems.push({ code: 'STORE_GAP', severity: 'warning', place, message: gapMessage(record) });
      continue;
    }
    const unsafe = recordProblem(record);
    for (const f of record.files) for (const p of f.pieces ?? []) named.add(p);
    if (unsafe !== undefined) {
      problems.push({ code: 'BUNDLE_UNSAFE_PATH', place, message: `${unsafe}: it is never written out` });
      continue;
    }
    sessions.add(record.session.key);
    checkGrowth(record, latest.get(record.session.key), bySeq, place, problems);
    latest.set(record.session.key, record);
    bySeq.set(record.seq, record);
    if (record.status === 'deleted') out.deletions.push({ seq: record.seq, session: record.session.display });
    for (const f of record.findings)
      if (f.code === 'BUNDLE_NOT_APPEND_ONLY')
        out.rewrites.push({
          seq: record.seq,
          session: record.session.display,
          file: f.file,
          ...(f.line !== undefined ? { line: f.line } : {}),
        });
    checkVersions(record, place, scan, versions, out, problems);
  }
  out.sessions = sessions.size;
  orphanObjects(scan, named, problems);
  const end = chainEnd({ seq: last, hashes, signed: signedBy }, readHead(store), key);
  if ('problem' in end) problems.push({ code: end.problem.code, place: end.problem.place, message: end.problem.found });
  else if (end.behind)
    problems.push({
      code: 'BUNDLE_UNVERIFIED',
      severity: 'warning',
      place: 'head.json',
      message:
        'names an earlier record than the last: a run was stopped between writing a record and the head (the next ' +
        'run catches up), so the last records are covered by the chain only',
    });
  if (out.records === 0)
    problems.push({
      code: 'STORE_EMPTY',
      place: 'captures',
      message: 'the store holds no capture record: nothing is proven (a new store, or one emptied)',
    });
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

const gapMessage = (g: GapRecord): string =>
  `${g.found}; acknowledged by ${g.by} at ${g.run}: ${JSON.stringify(g.reason)}` +
  (g.lost ? ` (capture numbers ${g.lost.from}-${g.lost.to} are not in the chain)` : '');

/** Every version a record names, rebuilt from its pieces (shared prefixes hashed once). */
function checkVersions(
  record: CaptureRecord,
  place: string,
  scan: ReturnType<typeof scanObjects>,
  versions: VersionHasher,
  out: StoreVerification,
  problems: StoreProblem[],
): void {
  for (const f of record.files) {
    if (f.type !== 'file' || f.pieces === undefined || f.sha256 === undefined) continue;
    const missing = f.pieces.filter((p) => !scan.good.has(p) && !scan.bad.has(p));
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
    if (f.pieces.some((p) => scan.bad.has(p))) {
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
