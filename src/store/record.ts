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
  files: StoredFile[];
  /** Append-only logs whose previous capture is a byte prefix of this one: path → the previous size. */
  grewFrom: Record<string, number>;
  findings: CaptureFinding[];
}

export const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** The bytes of a record's file: the record as JSON, or a DSSE envelope over it. */
export function encodeRecord(r: CaptureRecord, key?: KeyObject, keyId?: string): Buffer {
  const body = Buffer.from(`${JSON.stringify(r)}\n`, 'utf8');
  if (!key) return body;
  return Buffer.from(`${JSON.stringify(signEnvelope(body, key, keyId, CAPTURE_PAYLOAD_TYPE))}\n`, 'utf8');
}

/** A record's file read back: the record, and its envelope when signed. Throws on anything malformed. */
export function decodeRecord(bytes: Buffer): { record: CaptureRecord; envelope?: Envelope } {
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

function checkRecord(v: unknown): CaptureRecord {
  const r = v as CaptureRecord;
  if (!r || typeof r !== 'object' || r.type !== CAPTURE_TYPE) throw new Error('not a capture record');
  if (r.version !== 1) throw new Error(`capture record version ${String(r.version)} is not supported`);
  if (!Number.isInteger(r.seq) || r.seq < 1) throw new Error('no valid sequence number');
  if (r.prev !== null && !/^[0-9a-f]{64}$/.test(String(r.prev))) throw new Error('no valid predecessor hash');
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
