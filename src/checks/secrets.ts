/**
 * SECRET_IN_SESSION: a credential written into a session (a key pasted in a prompt, a token a tool printed). Every
 * string of every record and JSON document (object keys too) is scanned with the detectors `bundle --redact` uses
 * (src/secrets/: one table); a secret split across the same field of two consecutive records (streamed chunks of
 * one message) is found at their junction. The value is never printed: its kind and a short hash (to match
 * occurrences) stand for it.
 */
import { createHash } from 'node:crypto';
import type { Location } from '../model/finding.js';
import { findSecrets, mayHoldSecret, type SecretMatch } from '../secrets/detectors.js';
import { Junctions } from '../secrets/junction.js';
import { defineCheck } from './define.js';

/** No built-in secret is shorter. */
const SHORTEST = 8;

const shortHash = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 12);
const segment = (key: string): string =>
  key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;

export const secrets = defineCheck({
  id: 'secrets',
  validate: false,
  codes: {
    SECRET_IN_SESSION: {
      severity: 'warning',
      title: 'A credential is written in the session',
      help:
        'A string of the session holds something that looks like a secret: a provider API key (xAI, OpenAI, ' +
        'Anthropic, AWS, GitHub, GitLab, Slack, Google, Stripe, Hugging Face), a JSON Web Token, a PEM private key, ' +
        'an Authorization or Cookie header, or a NAME_KEY=/NAME_TOKEN= assignment. One finding per occurrence, with ' +
        'its file, line, byte offset and JSON Pointer; the value is never shown, only its kind and the first 12 hex ' +
        'digits of its sha256 (the same secret has the same hash wherever it occurs). A key split across two ' +
        'streamed chunks of one message is found where they join. Anyone with a copy of the session holds the ' +
        'credential: rotate it, and share the session only through `bundle --redact`, which replaces what this ' +
        'check finds. Detectors are patterns: a test fixture or an example key is found too; ' +
        '`--ignore SECRET_IN_SESSION` turns the check off.',
    },
  },
  create(ctx) {
    /** Where the strings being walked come from (set per record or document). */
    let file = '';
    let line: number | undefined;
    let byteOffset: number | undefined;
    /** The junctions of streamed chunks in this file (undefined: documents, no junctions). */
    let tails: Junctions | undefined;
    const at = (pointer: string): Location =>
      line === undefined ? { file, pointer } : { file, line, byteOffset: byteOffset!, pointer };

    const report = (pointer: string, text: string, m: SecretMatch, where: string, n: number, split?: number) => {
      const value = text.slice(m.valueStart, m.end);
      const hash = shortHash(value);
      const across =
        split !== undefined ? `, split across line ${split} and this line (streamed chunks of one message)` : '';
      ctx.emit(
        'SECRET_IN_SESSION',
        at(pointer),
        `${m.kind} in ${where}${across} (sha256 ${hash}…, ${value.length} characters; the value is not shown)`,
        { key: `${pointer}:${hash}:${n}${split !== undefined ? ':split' : ''}` },
      );
    };

    /** Scans one string; returns whether a secret runs to its end. Nothing is built unless a secret is found. */
    const scan = (text: string, pointer: string, key: boolean): boolean => {
      if (text.length < SHORTEST || !mayHoldSecret(text)) return false;
      const found = findSecrets(text);
      const where = key
        ? `a key of the object at ${pointer === '' ? '/' : pointer}`
        : pointer === ''
          ? 'the record'
          : `the value at ${pointer}`;
      for (let i = 0; i < found.length; i++) report(pointer, text, found[i]!, where, i);
      return found.length > 0 && found[found.length - 1]!.end === text.length;
    };

    /** After a string of a record: the secrets split between it and the last string at its pointer. */
    const follow = (t: Junctions, pointer: string, text: string, secretAtEnd: boolean): void => {
      let n = 0;
      for (const hit of t.follow(pointer, text, line!, secretAtEnd))
        report(pointer, hit.joined, hit.match, `the value at ${pointer}`, n++, hit.tailLine);
    };

    /** Every string of a JSON value (object keys too), with its pointer: an explicit stack, no recursion. */
    const values: unknown[] = [];
    const pointers: string[] = [];
    const walk = (value: unknown): void => {
      values.push(value);
      pointers.push('');
      while (values.length) {
        const v = values.pop();
        const pointer = pointers.pop()!;
        if (typeof v === 'string') {
          const atEnd = scan(v, pointer, false);
          if (tails) follow(tails, pointer, v, atEnd);
        } else if (Array.isArray(v)) {
          for (let i = v.length - 1; i >= 0; i--) {
            const c: unknown = v[i];
            if (typeof c === 'string' || (c !== null && typeof c === 'object')) {
              values.push(c);
              pointers.push(`${pointer}/${i}`);
            }
          }
        } else if (v !== null && typeof v === 'object') {
          const o = v as Record<string, unknown>;
          for (const k in o) {
            // A key that is itself a secret is reported, and never spelled out in a pointer.
            const keyed = scan(k, pointer, true);
            const c = o[k];
            if (typeof c === 'string' || (c !== null && typeof c === 'object')) {
              values.push(c);
              pointers.push(`${pointer}/${keyed ? '[secret key]' : segment(k)}`);
            }
          }
        }
      }
    };

    const files = new Map<string, Junctions>();
    return {
      doc(d) {
        if (d.value === undefined) return;
        file = d.file;
        line = undefined;
        byteOffset = undefined;
        tails = undefined;
        walk(d.value);
      },
      record({ file: f, record }) {
        if (record.value === undefined) return;
        file = f;
        line = record.line;
        byteOffset = record.byteOffset;
        tails = files.get(f);
        if (!tails) files.set(f, (tails = new Junctions()));
        walk(record.value);
      },
      fileEnd({ file: f }) {
        files.delete(f);
      },
    };
  },
});
