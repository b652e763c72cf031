/**
 * The custody checks of `verify`: the custody statement read (from its DSSE envelope when the bag is signed, the
 * signature checked when a key is given), and the bag held against it: every tag file it pins present and unchanged,
 * none it does not name.
 */
import type { KeyObject } from 'node:crypto';
import { HASHES, type BagContents, type HashName } from './bag-contents.js';
import { shortDigest, type Emit } from './bag-findings.js';
import { TAG_MANIFEST } from './bagit.js';
import { CUSTODY_PREDICATE } from './build.js';
import { envelopePayload, verifyEnvelope, type Envelope } from './dsse.js';

export interface Statement {
  _type?: string;
  subject?: Array<{ name?: string; digest?: Record<string, string> }>;
  predicateType?: string;
  predicate?: Record<string, unknown>;
}

/** What a bag's signature is: there or not, verified with the key given, the key id a verified one names. */
export interface BagSignature {
  present: boolean;
  verified: boolean;
  keyId?: string;
}

/**
 * The bag's custody statement (undefined when there is none to read), its signature and subjects checked, and
 * what its signature is.
 */
export function checkCustody(
  c: BagContents,
  emit: Emit,
  key?: KeyObject,
): { statement?: Statement; signature: BagSignature } {
  const signature: BagSignature = { present: false, verified: false };
  const members = c.members;
  const text = (name: string): string | undefined => members.get(name)?.bytes?.toString('utf8');
  let statement: Statement | undefined;
  const dsseText = text('custody.dsse.json');
  const plainText = text('custody.intoto.json');
  if (dsseText !== undefined) {
    let env: Envelope | undefined;
    try {
      env = JSON.parse(dsseText) as Envelope;
      if (typeof env.payload !== 'string' || !Array.isArray(env.signatures)) throw new Error('shape');
    } catch {
      emit('BUNDLE_SIGNATURE_INVALID', { file: 'custody.dsse.json' }, 'not a DSSE envelope');
      env = undefined;
    }
    if (env) {
      signature.present = true;
      if (key) {
        const v = verifyEnvelope(env, key);
        if (v.valid) {
          signature.verified = true;
          if (v.keyIds[0] !== undefined) signature.keyId = v.keyIds[0];
        } else
          emit(
            'BUNDLE_SIGNATURE_INVALID',
            { file: 'custody.dsse.json' },
            `none of its ${v.total} signature(s) verifies with the given key` +
              (env.payloadType !== 'application/vnd.in-toto+json'
                ? ` (payload type ${JSON.stringify(env.payloadType)})`
                : ''),
          );
      } else
        emit(
          'BUNDLE_UNVERIFIED',
          { file: 'custody.dsse.json' },
          'the custody statement is signed, but no --key was given to check the signature',
        );
      try {
        statement = JSON.parse(envelopePayload(env).toString('utf8')) as Statement;
      } catch {
        emit('BUNDLE_SIGNATURE_INVALID', { file: 'custody.dsse.json' }, 'its payload is not a JSON statement');
      }
    }
  } else if (key) {
    emit(
      'BUNDLE_SIGNATURE_INVALID',
      { file: 'custody.dsse.json' },
      'a --key was given but the bag is not signed (no custody.dsse.json)',
    );
  }
  if (!statement && plainText !== undefined) {
    try {
      statement = JSON.parse(plainText) as Statement;
    } catch {
      emit('BUNDLE_MANIFEST_MISMATCH', { file: 'custody.intoto.json' }, 'the custody statement is not valid JSON');
    }
  }
  if (dsseText !== undefined && plainText !== undefined)
    emit(
      'BUNDLE_FILE_EXTRA',
      { file: 'custody.intoto.json' },
      'an unsigned custody statement beside the signed one (custody.dsse.json): not covered by the signature, ' +
        'not trusted; only the signed statement was checked',
      { key: 'second-custody' },
    );
  const st = statement;
  if (st && st.predicateType === CUSTODY_PREDICATE) {
    const signed = dsseText !== undefined;
    const file = signed ? 'custody.dsse.json' : 'custody.intoto.json';
    const subjects = new Set((st.subject ?? []).map((s) => s.name));
    // The statement pins every tag file but itself and the tag manifests: a tag file it does not name was added
    // (or renamed) after custody was recorded.
    for (const name of [...members.keys()].sort()) {
      if (name.startsWith('data/') || TAG_MANIFEST.test(name) || /^custody\.(dsse|intoto)\.json$/.test(name)) continue;
      if (!subjects.has(name))
        emit(
          'BUNDLE_FILE_EXTRA',
          { file: name },
          `a tag file the custody statement (${file}) does not name: added after custody was recorded` +
            (signed ? ', not covered by the signature' : ''),
          { key: `unpinned:${name}` },
        );
    }
    for (const s of st.subject ?? []) {
      const member = s.name !== undefined ? members.get(s.name) : undefined;
      if (!member) {
        emit(
          'BUNDLE_FILE_MISSING',
          { file: s.name ?? file },
          `the custody statement names ${JSON.stringify(s.name)} as a subject, but the bag does not hold it`,
          { key: `subject:${s.name}` },
        );
        continue;
      }
      // One finding per file: the first digest that disagrees (both do when a file was changed).
      const bad = Object.entries(s.digest ?? {}).find(
        ([alg, digest]) => (HASHES as readonly string[]).includes(alg) && member.digests[alg as HashName] !== digest,
      );
      if (bad) {
        const [alg, digest] = bad;
        emit(
          'BUNDLE_MANIFEST_MISMATCH',
          { file: s.name! },
          `the custody statement records ${alg} ${shortDigest(digest)}, the file has ` +
            `${shortDigest(member.digests[alg as HashName])}: ${s.name} was changed after custody was ` +
            `${signed ? 'signed' : 'recorded'}`,
          { key: `subject:${s.name}` },
        );
      }
    }
  }
  return { ...(statement !== undefined ? { statement } : {}), signature };
}
