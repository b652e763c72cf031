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
import { defineCheck } from './define.js';

/** How much of two consecutive chunks is joined to look for a secret across them (each side). */
const JUNCTION = 4096;
/** No built-in secret is shorter. */
const SHORTEST = 8;
/** Pointers remembered per file for the junctions of streamed chunks. */
const MAX_POINTERS = 10_000;

const shortHash = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 12);
const segment = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const isSpace = (c: string | undefined): boolean => c === undefined || /\s/.test(c);

interface Tail {
  text: string;
  /** A secret found in this string runs to its end (a junction would find it again). */
  secretAtEnd: boolean;
}

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
    const report = (
      at: Location,
      text: string,
      m: SecretMatch,
      where: string,
      n: number,
      split?: { line: number | undefined },
    ): void => {
      const value = text.slice(m.valueStart, m.end);
      const hash = shortHash(value);
      const across = split
        ? `, split across ${split.line !== undefined ? `line ${split.line} and this line` : 'two records'} ` +
          '(streamed chunks of one message)'
        : '';
      ctx.emit(
        'SECRET_IN_SESSION',
        at,
        `${m.kind} in ${where}${across} (sha256 ${hash}…, ${value.length} characters; the value is not shown)`,
        { key: `${at.pointer ?? ''}:${hash}:${n}${split ? ':split' : ''}` },
      );
    };

    /** Scans one string; returns whether a secret runs to its end. */
    const scan = (text: string, at: Location, where: string): boolean => {
      if (text.length < SHORTEST || !mayHoldSecret(text)) return false;
      const found = findSecrets(text);
      found.forEach((m, i) => {
        report(at, text, m, where, i);
      });
      return found.length > 0 && found[found.length - 1]!.end === text.length;
    };

    /** Every string of a JSON value, with its pointer (an explicit stack: no recursion on deep values). */
    const walk = (
      value: unknown,
      at: Omit<Location, 'pointer'>,
      tails?: Map<string, Tail & { line: number }>,
    ): void => {
      const stack: Array<[unknown, string]> = [[value, '']];
      while (stack.length) {
        const [v, pointer] = stack.pop()!;
        if (typeof v === 'string') {
          const where = { ...at, pointer };
          const secretAtEnd = scan(v, where, pointer === '' ? 'the record' : `the value at ${pointer}`);
          if (tails && at.line !== undefined) {
            junction({ ...where, line: at.line }, v, tails);
            if (v.length && !isSpace(v[v.length - 1])) {
              if (tails.size >= MAX_POINTERS && !tails.has(pointer)) tails.clear();
              tails.set(pointer, { text: v.slice(-JUNCTION), secretAtEnd, line: at.line });
            } else tails.delete(pointer);
          }
        } else if (Array.isArray(v)) {
          for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${pointer}/${i}`]);
        } else if (v !== null && typeof v === 'object') {
          const entries = Object.entries(v as Record<string, unknown>);
          for (let i = entries.length - 1; i >= 0; i--) {
            const [k, child] = entries[i]!;
            // A key that is itself a secret is reported, and never spelled out in a pointer.
            const keyed = scan(k, { ...at, pointer }, `a key of the object at ${pointer === '' ? '/' : pointer}`);
            stack.push([child, `${pointer}/${keyed ? '[secret key]' : segment(k)}`]);
          }
        }
      }
    };

    /**
     * Per file and pointer: the last string seen there, when it ends in a non-space character (a writer may put
     * other lines between two chunks of one message). Bounded: forgotten past MAX_POINTERS pointers.
     */
    const last = new Map<string, Map<string, Tail & { line: number }>>();

    /** A secret whose value starts in the last string at this pointer and ends in this one. */
    const junction = (at: Location & { line: number }, text: string, tails: Map<string, Tail & { line: number }>) => {
      const pointer = at.pointer ?? '';
      const before = tails.get(pointer);
      if (!before || before.secretAtEnd || !text.length || isSpace(text[0])) return;
      const tail = before.text.slice(-JUNCTION);
      const joined = tail + text.slice(0, JUNCTION);
      if (!mayHoldSecret(joined)) return;
      findSecrets(joined)
        .filter((m) => m.valueStart < tail.length && m.end > tail.length)
        .forEach((m, i) => {
          report(at, joined, m, `the value at ${pointer}`, i, { line: before.line });
        });
    };

    return {
      doc({ file, value }) {
        if (value !== undefined) walk(value, { file });
      },
      record({ file, record }) {
        if (record.value === undefined) return;
        let tails = last.get(file);
        if (!tails) last.set(file, (tails = new Map()));
        walk(record.value, { file, line: record.line, byteOffset: record.byteOffset }, tails);
      },
      fileEnd({ file }) {
        last.delete(file);
      },
    };
  },
});
