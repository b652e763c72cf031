/**
 * head.json: the number and sha256 of the last capture record, rewritten after each run's records are on disk. It is
 * what shows that records were removed from the end of the chain (the chain itself cannot: its last record names
 * only its predecessor). In a signed store it is signed too (a DSSE envelope with the records' key), so a cut of
 * the chain's end needs the key to hide; an unsigned head can be rewritten by anyone who can write the store.
 *
 * `chainEnd` compares the head with the chain as read, for `archive` (which refuses to build on a gap until a person
 * acknowledges it) and for `verify --store`.
 */
import type { KeyObject } from 'node:crypto';
import { envelopePayload, signEnvelope, verifyEnvelope, type Envelope } from '../bundle/dsse.js';
import { readWholeFile } from '../read/files.js';
import { ReadError } from '../read/open-regular.js';
import { captureName, headFile } from './layout.js';

export const HEAD_TYPE = 'session-audit-head';
export const HEAD_PAYLOAD_TYPE = 'application/vnd.session-audit.head+json';

export interface Head {
  seq: number;
  sha256: string | null;
  /** Signed heads: the envelope (its signature checked by chainEnd when a key is given). */
  envelope?: Envelope;
}

/** The bytes of head.json: plain, or (with a key) a DSSE envelope over the same fields and a type. */
export function encodeHead(seq: number, sha: string | null, key?: KeyObject, keyId?: string): Buffer {
  if (!key) return Buffer.from(`${JSON.stringify({ seq, sha256: sha })}\n`);
  const body = Buffer.from(`${JSON.stringify({ type: HEAD_TYPE, seq, sha256: sha })}\n`);
  return Buffer.from(`${JSON.stringify(signEnvelope(body, key, keyId, HEAD_PAYLOAD_TYPE))}\n`);
}

function decodeHead(bytes: Buffer): Head {
  let v = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  let envelope: Envelope | undefined;
  if (v && typeof v === 'object' && v.payloadType !== undefined) {
    envelope = v as unknown as Envelope;
    if (envelope.payloadType !== HEAD_PAYLOAD_TYPE || typeof envelope.payload !== 'string')
      throw new Error('a DSSE envelope that is not of a head');
    if (!Array.isArray(envelope.signatures)) throw new Error('a DSSE envelope without signatures');
    v = JSON.parse(envelopePayload(envelope).toString('utf8')) as Record<string, unknown>;
    if (v?.type !== HEAD_TYPE) throw new Error('a signed payload that is not a head');
  }
  const seq = v?.seq;
  const sha = v?.sha256;
  if (!Number.isInteger(seq) || (seq as number) < 0) throw new Error('no valid record number');
  if (sha !== null && !/^[0-9a-f]{64}$/.test(String(sha))) throw new Error('no valid record hash');
  if (seq === 0 ? sha !== null : sha === null) throw new Error('a record number and hash that do not go together');
  return { seq: seq as number, sha256: sha as string | null, ...(envelope ? { envelope } : {}) };
}

/** head.json as read: the head, 'missing', or why it cannot be read. */
export function readHead(store: string): Head | 'missing' | { error: string } {
  try {
    return decodeHead(readWholeFile(headFile(store), 64 * 1024, true).bytes);
  } catch (e) {
    if (e instanceof ReadError && e.reason === 'ENOENT') return 'missing';
    return { error: (e as Error).message };
  }
}

/** The chain as read: its last record's number, each record's file hash, and whether each is signed. */
export interface ChainSeen {
  seq: number;
  hashes: ReadonlyMap<number, string>;
  signed: ReadonlyMap<number, boolean>;
}

/** What is wrong at the chain's end: a sentence, what was lost, and what the head said. */
export interface ChainEndProblem {
  /** Records removed (or the head gone), a record altered, a head signed by another key or not signed. */
  code: 'STORE_GAP' | 'BUNDLE_MANIFEST_MISMATCH' | 'BUNDLE_SIGNATURE_INVALID';
  /** The record it is about (captures/…), else head.json. */
  place: string;
  found: string;
  lost: { from: number; to: number } | null;
  head: { seq: number; sha256: string } | null;
}

/**
 * The head against the chain. `behind`: the head names an earlier record of the chain, as a run stopped between its
 * records and its head leaves it (the next run catches up). `key`: the public key the head's signature must verify
 * with, when signed.
 */
export function chainEnd(
  chain: ChainSeen,
  head: Head | 'missing' | { error: string },
  key?: KeyObject,
): { problem: ChainEndProblem } | { behind: boolean } {
  const problem = (
    found: string,
    lost: ChainEndProblem['lost'] = null,
    code: ChainEndProblem['code'] = 'STORE_GAP',
    place = 'head.json',
  ): { problem: ChainEndProblem } => ({
    problem: {
      code,
      place,
      found,
      lost,
      head:
        typeof head === 'object' && 'seq' in head && head.sha256 !== null
          ? { seq: head.seq, sha256: head.sha256 }
          : null,
    },
  });
  if (head === 'missing')
    return chain.seq === 0
      ? { behind: false }
      : problem(`head.json is missing: whether records after capture ${chain.seq} were removed cannot be told`);
  if ('error' in head) return problem(`head.json cannot be read (${head.error})`);
  if (head.seq > chain.seq)
    return problem(
      `head.json names capture ${head.seq} as the last, but the chain ends at capture ${chain.seq}: ` +
        `${head.seq - chain.seq === 1 ? `capture ${head.seq} was` : `captures ${chain.seq + 1}-${head.seq} were`} ` +
        'removed',
      { from: chain.seq + 1, to: head.seq },
    );
  if (head.seq > 0 && chain.hashes.get(head.seq) !== head.sha256)
    return problem(
      `capture ${head.seq} hashes to ${chain.hashes.get(head.seq) ?? 'nothing'}, but head.json recorded ` +
        `${head.sha256}: it was altered after it was written`,
      null,
      'BUNDLE_MANIFEST_MISMATCH',
      `captures/${captureName(head.seq)}`,
    );
  // The run that wrote a signed record signed the head naming it (a signed store is only ever written signed).
  if (chain.signed.get(head.seq) === true && !head.envelope)
    return problem(
      `head.json is not signed, but the record it names (capture ${head.seq}) is: it was rewritten without the key`,
      null,
      'BUNDLE_SIGNATURE_INVALID',
    );
  if (key && head.envelope && verifyEnvelope(head.envelope, key, HEAD_PAYLOAD_TYPE).valid === 0)
    return problem("head.json's signature does not verify with the key", null, 'BUNDLE_SIGNATURE_INVALID');
  return { behind: head.seq < chain.seq };
}
