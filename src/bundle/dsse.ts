/**
 * DSSE (Dead Simple Signing Envelope) over an in-toto Statement, signed with Ed25519 from node:crypto.
 * PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const INTOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface Envelope {
  payload: string;
  payloadType: string;
  signatures: Array<{ keyid?: string; sig: string }>;
}

export function pae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${body.length} `), body]);
}

/** OpenSSL's words for a key it cannot read are not the user's: say what was expected. */
function readKey<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch {
    throw new Error(
      `not a PEM-encoded ${what} (make one with: openssl genpkey -algorithm ed25519 -out key.pem; openssl pkey -in ` +
        `key.pem -pubout -out key.pub.pem)`,
    );
  }
}

export function privateKeyFromPem(pem: string): KeyObject {
  const key = readKey('Ed25519 private key', () => createPrivateKey(pem));
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`expected an Ed25519 private key, got ${key.asymmetricKeyType ?? 'an unknown key type'}`);
  return key;
}

export function publicKeyFromPem(pem: string): KeyObject {
  const key = readKey('Ed25519 public key', () => createPublicKey(pem));
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`expected an Ed25519 public key, got ${key.asymmetricKeyType ?? 'an unknown key type'}`);
  return key;
}

/** An Ed25519 private key from its 32-byte seed (the form test vectors use). */
export function privateKeyFromSeed(seed: Buffer): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

export function publicKeyFromRaw(raw: Buffer): KeyObject {
  return createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
    format: 'der',
    type: 'spki',
  });
}

export function signEnvelope(
  body: Buffer,
  key: KeyObject,
  keyid?: string,
  payloadType = INTOTO_PAYLOAD_TYPE,
): Envelope {
  const sig = sign(null, pae(payloadType, body), key).toString('base64');
  return { payload: body.toString('base64'), payloadType, signatures: [keyid ? { keyid, sig } : { sig }] };
}

/** Both base64 alphabets are accepted, as DSSE requires. */
const b64 = (s: string): Buffer => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');

/** How many signatures verify with the key (0: none does), and the key ids those that do name. */
export function verifyEnvelope(
  env: Envelope,
  key: KeyObject,
  payloadType = INTOTO_PAYLOAD_TYPE,
): { valid: number; total: number; keyIds: string[] } {
  if (env.payloadType !== payloadType) return { valid: 0, total: env.signatures.length, keyIds: [] };
  const body = b64(env.payload);
  let valid = 0;
  const keyIds: string[] = [];
  for (const s of env.signatures) {
    try {
      if (verify(null, pae(env.payloadType, body), key, b64(s.sig))) {
        valid++;
        if (typeof s.keyid === 'string' && s.keyid !== '' && !keyIds.includes(s.keyid)) keyIds.push(s.keyid);
      }
    } catch {
      /* a malformed signature is not a valid one */
    }
  }
  return { valid, total: env.signatures.length, keyIds };
}

/**
 * A public key's fingerprint: `sha256:` and the hex sha256 of its DER SubjectPublicKeyInfo, which anyone can
 * recompute (`openssl pkey -pubin -in key.pub.pem -outform DER | sha256sum`).
 */
export function keyFingerprint(key: KeyObject): string {
  return `sha256:${createHash('sha256')
    .update(key.export({ format: 'der', type: 'spki' }))
    .digest('hex')}`;
}

export const envelopePayload = (env: Envelope): Buffer => b64(env.payload);
