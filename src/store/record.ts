/**
 * Capture records: one per run per changed session, numbered from 1 in the order written, each naming the sha256
 * of its predecessor's file (a hash chain: removing, reordering or editing a record breaks it). A record is the
 * whole state of its session at that moment: every entry's type, size, mtime and mode, and for regular files the
 * sha256 of the version and the pieces (objects) it is the concatenation of. Optionally a DSSE envelope.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { envelopePayload, signEnvelope, type Envelope } from '../bundle/dsse.js';
import type { EntryType } from '../model/inventory.js';

export const CAPTURE_TYPE = 'session-audit-capture';
export const CAPTURE_PAYLOAD_TYPE = 'application/vnd.session-audit.capture+json';

export interface StoredFile {
  /** Relative to the session's directory ('/'-separated), as the walk named it. */
  path: string;
  type: EntryType;
  size: number;
  mtimeMs: number;
  mode: number;
  /** Regular files: the version's sha256 and its pieces, in order. */
  sha256?: string;
  pieces?: string[];
  /** The file system's stamp of the version read (device:inode:size:mtime:ctime), to skip re-reading it. */
  stamp?: string;
  linkTarget?: string;
  readError?: string;
}

export interface StoredSession {
  /** Stable key of the session in the store: sha256 of its format, directory and member names (32 hex). */
  key: string;
  id: string;
  format: string;
  /** The directory holding its files, absolute. */
  abs: string;
  /** The path as the run's argument named it. */
  display: string;
  /** The root argument it was found under, absolute. */
  root: string;
  groupName?: string;
  /** A session stored as files: the names in `abs` that belong to it. */
  members?: string[];
}

/** A rewritten append-only log, or another problem the capture saw in the source. */
export interface CaptureFinding {
  code: 'BUNDLE_NOT_APPEND_ONLY' | 'BUNDLE_FILE_MISSING';
  file: string;
  line?: number;
  message: string;
}

export interface CaptureRecord {
  type: typeof CAPTURE_TYPE;
  version: 1;
  seq: number;
  /** sha256 of the previous record's file (null for the first). */
  prev: string | null;
  /** When the run started (ISO 8601), the same for every record of a run. */
  run: string;
  status: 'new' | 'changed' | 'deleted';
  session: StoredSession;
  /** The session's capture this one follows (its seq), absent for a new session. */
  previous?: number;
  /**
   * The capture its files were compared with when that is not `previous`: its own last capture with files (back
   * after a deletion), or one of the same agent and id at a path that is gone (moved, renamed).
   */
  basis?: number;
  files: StoredFile[];
  /** Append-only logs whose previous capture is a byte prefix of this one: path → the previous size. */
  grewFrom: Record<string, number>;
  findings: CaptureFinding[];
}

export const GAP_TYPE = 'session-audit-gap';

/**
 * A person's acknowledgement, written into the chain by `archive --acknowledge-gap`, that records were found
 * missing or altered at its end: what was found, what head.json said then, who acknowledged it and why. Numbered
 * after the last record head.json named, so a number once given names one record forever.
 */
export interface GapRecord {
  type: typeof GAP_TYPE;
  version: 1;
  seq: number;
  prev: string | null;
  run: string;
  /** The records head.json named that the chain no longer holds (none when it was an edit, or head.json was gone). */
  lost: { from: number; to: number } | null;
  /** What head.json said when the gap was found, or null when it was missing or unreadable. */
  head: { seq: number; sha256: string } | null;
  /** What archive found, in a sentence. */
  found: string;
  reason: string;
  /** Who acknowledged it: the user name and uid of the run. */
  by: string;
}

export type ChainRecord = CaptureRecord | GapRecord;

export const isGap = (r: ChainRecord): r is GapRecord => r.type === GAP_TYPE;

export const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** The bytes of a record's file: the record as JSON, or a DSSE envelope over it. */
export function encodeRecord(r: ChainRecord, key?: KeyObject, keyId?: string): Buffer {
  const body = Buffer.from(`${JSON.stringify(r)}\n`, 'utf8');
  if (!key) return body;
  return Buffer.from(`${JSON.stringify(signEnvelope(body, key, keyId, CAPTURE_PAYLOAD_TYPE))}\n`, 'utf8');
}

/** A record's file read back: the record, and its envelope when signed. Throws on anything malformed. */
export function decodeRecord(bytes: Buffer): { record: ChainRecord; envelope?: Envelope } {
  const v = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  if (v.payloadType !== undefined) {
    const envelope = v as unknown as Envelope;
    if (typeof envelope.payload !== 'string' || !Array.isArray(envelope.signatures))
      throw new Error('a malformed DSSE envelope');
    const record = checkRecord(JSON.parse(envelopePayload(envelope).toString('utf8')));
    return { record, envelope };
  }
  return { record: checkRecord(v) };
}

function checkRecord(v: unknown): ChainRecord {
  const r = v as CaptureRecord;
  if (!r || typeof r !== 'object' || (r.type !== CAPTURE_TYPE && (r as { type: unknown }).type !== GAP_TYPE))
    throw new Error('not a capture record');
  if (r.version !== 1) throw new Error(`capture record version ${String(r.version)} is not supported`);
  if (!Number.isInteger(r.seq) || r.seq < 1) throw new Error('no valid sequence number');
  if (r.prev !== null && !/^[0-9a-f]{64}$/.test(String(r.prev))) throw new Error('no valid predecessor hash');
  if ((r as { type: unknown }).type === GAP_TYPE) return checkGap(v as GapRecord);
  if (!r.session || typeof r.session.key !== 'string' || typeof r.session.id !== 'string')
    throw new Error('no session');
  if (!Array.isArray(r.files) || !Array.isArray(r.findings)) throw new Error('no file list');
  for (const f of r.files) {
    if (typeof f.path !== 'string' || typeof f.type !== 'string') throw new Error('a malformed file entry');
    if (f.type === 'file' && f.readError === undefined) {
      if (!/^[0-9a-f]{64}$/.test(String(f.sha256)) || !Array.isArray(f.pieces))
        throw new Error(`file ${JSON.stringify(f.path)} has no valid digest or pieces`);
      for (const p of f.pieces) if (!/^[0-9a-f]{64}$/.test(String(p))) throw new Error('a malformed piece name');
    }
  }
  return r;
}

function checkGap(g: GapRecord): GapRecord {
  const n = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0;
  if (g.lost !== null && (!g.lost || !n(g.lost.from) || !n(g.lost.to) || g.lost.from > g.lost.to))
    throw new Error('a gap record with no valid range of lost records');
  if (g.head !== null && (!g.head || !n(g.head.seq) || !/^[0-9a-f]{64}$/.test(String(g.head.sha256))))
    throw new Error('a gap record with no valid head');
  if (typeof g.found !== 'string' || typeof g.reason !== 'string' || typeof g.by !== 'string')
    throw new Error('a gap record without what was found, why and by whom');
  return g;
}

/**
 * What makes a record's file list unsafe to write out, or undefined: a path that is empty, absolute, has an empty,
 * `.` or `..` segment or a NUL, is listed twice, or lies below an entry that is not a directory (a recorded symlink or
 * file: writing below it would follow the link). The walk never records such a list; only a forged record holds one.
 */
export function unsafePath(files: readonly StoredFile[]): string | undefined {
  const kinds = new Map<string, string>();
  for (const f of files) {
    const p = f.path;
    const segments = p.split('/');
    if (p === '' || p.includes('\0') || segments.some((x) => x === '' || x === '.' || x === '..'))
      return `the path ${JSON.stringify(p)} is not a plain relative path`;
    if (kinds.has(p)) return `the path ${JSON.stringify(p)} is listed twice`;
    kinds.set(p, f.type);
  }
  for (const p of kinds.keys()) {
    const segments = p.split('/');
    for (let i = 1; i < segments.length; i++) {
      const up = segments.slice(0, i).join('/');
      const kind = kinds.get(up);
      if (kind !== undefined && kind !== 'dir')
        return `the path ${JSON.stringify(p)} lies below ${JSON.stringify(up)}, recorded as a ${kind}`;
    }
  }
  return undefined;
}

/** What makes a record unsafe to write out (its paths, its session's member names), or undefined. */
export function recordProblem(r: CaptureRecord): string | undefined {
  const plain = (n: string): boolean => n !== '' && n !== '.' && n !== '..' && !n.includes('/') && !n.includes('\0');
  // A member is a plain relative path (an agent home's file in its own folder: sessions/session_search.sqlite).
  const bad = r.session.members?.find((m) => typeof m !== 'string' || !m.split('/').every(plain));
  if (bad !== undefined) return `the member name ${JSON.stringify(bad)} is not a plain relative path`;
  if (typeof r.session.abs !== 'string' || !r.session.abs.startsWith('/') || !plain(r.session.abs.replace(/^.*\//, '')))
    return `the session's directory ${JSON.stringify(r.session.abs)} is not an absolute path to a named directory`;
  return unsafePath(r.files);
}

/**
 * An earlier capture's files as a session now names them (`now`: its members and display path): a file session's
 * file renamed (a rollout moved under another name) is compared with the file it was.
 */
export function filesAs(basis: CaptureRecord, now: { members?: readonly string[]; display: string }): StoredFile[] {
  if (!basis.session.members || !now.members) return basis.files;
  const was = basis.session.display.replace(/^.*\//, '');
  const is = now.display.replace(/^.*\//, '');
  if (was === is) return basis.files;
  return basis.files.filter((f) => f.path !== is).map((f) => (f.path === was ? { ...f, path: is } : f));
}
