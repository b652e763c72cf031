/**
 * SECRET_IN_SESSION: a credential written into a session (a key pasted in a prompt, a token a tool printed). Every
 * string of every record and JSON document (object keys too) is scanned with the detectors `bundle --redact` uses
 * (src/secrets/: one table); a secret split across the same field of two consecutive records (streamed chunks of
 * one message) is found at their junction. The value is never printed: its kind and a short hash (to match
 * occurrences) stand for it.
 *
 * The junctions are looked for where the agent streams text (its `streamedText` trait: the pointers of its chunks),
 * after the record's own strings, in the thread that parses every record; the rest of the scan can then skip a
 * record whose line holds none of the detectors' literals (engine/parallel/: the second thread of a large log parses
 * only the lines secrets/raw-literals.ts names). An agent without the trait has a junction looked for at every
 * pointer, as `secretScan(ctx, 'every')` does (the reference the tests compare with).
 */
import { createHash } from 'node:crypto';
import type { Location } from '../model/finding.js';
import type { OffloadedFinding } from '../model/session.js';
import type { AgentTraits } from '../formats/traits.js';
import { findSecrets, type SecretMatch } from '../secrets/detectors.js';
import { mayHoldSecret } from '../secrets/literals.js';
import { Junctions } from '../secrets/junction.js';
import { PathTrie, pointerSegment } from '../secrets/paths.js';
import { defineCheck, type CheckContext, type CheckRun } from './define.js';

/** No built-in secret is shorter. */
const SHORTEST = 8;
/** The segment standing for an object key that is itself a secret (never spelled out). */
const SECRET_KEY = '[secret key]';
const LITERAL: ReadonlySet<string> = new Set([SECRET_KEY]);
/** Paths remembered per file before its junctions start again (a bound on memory for hostile files). */
const MAX_PATHS = 200_000;
/** Split secrets of a log scanned in another thread held back to be put in line order with its findings. */
const MAX_HELD = 4096;

/**
 * Where junctions are looked for: at every pointer (`every`), at the pointers the agent streams text at (a
 * function of the artifact kind, `streamedText`), or nowhere (`none`: the second thread of a large log, whose
 * junctions are its loader's).
 */
export type JunctionMode = 'every' | 'none' | { streamed: NonNullable<AgentTraits['streamedText']> };

const shortHash = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 12);

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
        'an Authorization or Cookie header, a NAME_KEY=/NAME_TOKEN= assignment, the password of a URI ' +
        '(scheme://user:password@host) or a password assigned to a key named for one (password=, pass=, pwd=, ' +
        '"password": "…"). One finding per occurrence, with ' +
        'its file, line, byte offset and JSON Pointer; the value is never shown, only its kind and the first 12 hex ' +
        'digits of its sha256 (the same secret has the same hash wherever it occurs). A key split across two ' +
        'streamed chunks of one message is found where they join. Anyone with a copy of the session holds the ' +
        'credential: rotate it, and share the session only through `bundle --redact`, which replaces what this ' +
        'check finds. Detectors are patterns: a test fixture or an example key is found too; ' +
        '`--ignore SECRET_IN_SESSION` turns the check off.',
    },
  },
  create: (ctx) => secretScan(ctx, ctx.agent?.streamedText ? { streamed: ctx.agent.streamedText } : 'every'),
});

/** The check's run, its junctions looked for as `mode` says. */
export function secretScan(ctx: CheckContext<'SECRET_IN_SESSION'>, mode: JunctionMode): CheckRun {
  /** Where the strings being walked come from (set per record or document). */
  let file = '';
  let line: number | undefined;
  let byteOffset: number | undefined;
  /** The junctions of streamed chunks in this file and its paths (undefined: documents, no junctions). */
  let tails: Junctions | undefined;
  let trie: PathTrie | undefined;
  /** Where findings go instead of `emit` while set (split secrets held until the file ends). */
  let emitTo: OffloadedFinding[] | undefined;
  const at = (pointer: string): Location =>
    line === undefined ? { file, pointer } : { file, line, byteOffset: byteOffset!, pointer };

  const report = (pointer: string, text: string, m: SecretMatch, where: string, n: number, split?: number) => {
    const value = text.slice(m.valueStart, m.end);
    const hash = shortHash(value);
    const across =
      split !== undefined ? `, split across line ${split} and this line (streamed chunks of one message)` : '';
    const size = `${value.length} characters; the value is not shown`;
    const message = `${m.kind} in ${where}${across} (sha256 ${hash}…, ${size})`;
    const key = `${pointer}:${hash}:${n}${split !== undefined ? ':split' : ''}`;
    if (emitTo) emitTo.push({ code: 'SECRET_IN_SESSION', location: at(pointer), message, key });
    else ctx.emit('SECRET_IN_SESSION', at(pointer), message, { key });
  };

  /** Scans one string that may hold a secret (mayHoldSecret); returns whether a secret runs to its end. */
  const scan = (text: string, pointer: string, key: boolean): boolean => {
    const found = findSecrets(text);
    const where = key
      ? `a key of the object at ${pointer === '' ? '/' : pointer}`
      : pointer === ''
        ? 'the record'
        : `the value at ${pointer}`;
    for (let i = 0; i < found.length; i++) report(pointer, text, found[i]!, where, i);
    return found.length > 0 && found[found.length - 1]!.end === text.length;
  };

  /** After a string of a record: the secrets split between it and the last string at its path. */
  const follow = (t: Junctions, path: number, text: string, secretAtEnd: boolean, held: boolean): void => {
    let n = 0;
    for (const hit of t.follow(path, text, line!, secretAtEnd, held)) {
      const pointer = trie!.pointer(path, LITERAL);
      report(pointer, hit.joined, hit.match, `the value at ${pointer}`, n++, hit.tailLine);
    }
  };

  /**
   * Every string of a JSON value (object keys too), with its pointer: an explicit stack, no recursion. Each value
   * visited is a node naming its parent and its segment; its path (an id in the file's trie) and its pointer's
   * text are made only for a string that needs one (a secret found, or a junction to follow).
   */
  const stack: number[] = [];
  const nodeValue: unknown[] = [];
  const nodeParent: number[] = [];
  const nodeSegment: string[] = [];
  const nodePath: number[] = [];
  const pathOf = (node: number): number => {
    const chain: number[] = [];
    let n = node;
    while (nodePath[n] === -1) {
      chain.push(n);
      n = nodeParent[n]!;
    }
    let id = nodePath[n]!;
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i]!;
      id = trie!.child(id, nodeSegment[c]!);
      nodePath[c] = id;
    }
    return id;
  };
  /** The pointer's text of a node (documents have no trie: spelled from the nodes). */
  const pointerOf = (node: number): string => {
    if (trie) return trie.pointer(pathOf(node), LITERAL);
    let p = '';
    for (let n = node; n > 0; n = nodeParent[n]!) {
      const seg = nodeSegment[n]!;
      p = `/${seg === SECRET_KEY ? seg : pointerSegment(seg)}${p}`;
    }
    return p;
  };
  const push = (value: unknown, parent: number, seg: string): void => {
    stack.push(nodeValue.length);
    nodeValue.push(value);
    nodeParent.push(parent);
    nodeSegment.push(seg);
    nodePath.push(-1);
  };
  const walk = (value: unknown): void => {
    nodeValue.length = nodeParent.length = nodeSegment.length = nodePath.length = 0;
    push(value, -1, '');
    nodePath[0] = PathTrie.ROOT;
    while (stack.length) {
      const node = stack.pop()!;
      const v = nodeValue[node];
      if (typeof v === 'string') {
        const held = mayHoldSecret(v);
        const atEnd = held && v.length >= SHORTEST && scan(v, pointerOf(node), false);
        if (tails?.needs(v, held)) follow(tails, pathOf(node), v, atEnd, held);
      } else if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) {
          const c: unknown = v[i];
          if (typeof c === 'string' || (c !== null && typeof c === 'object')) push(c, node, String(i));
        }
      } else if (v !== null && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        let here: string | undefined;
        for (const k in o) {
          // A key that is itself a secret is reported, and never spelled out in a pointer.
          const keyed = k.length >= SHORTEST && mayHoldSecret(k) && scan(k, (here ??= pointerOf(node)), true);
          const c = o[k];
          if (typeof c === 'string' || (c !== null && typeof c === 'object')) push(c, node, keyed ? SECRET_KEY : k);
        }
      }
    }
    nodeValue.length = 0;
  };

  const files = new Map<string, { tails: Junctions; trie: PathTrie; held: OffloadedFinding[] }>();
  const fileState = (f: string) => {
    let mine = files.get(f);
    if (!mine) files.set(f, (mine = { tails: new Junctions(), trie: new PathTrie(), held: [] }));
    return mine;
  };
  /** The streamed pointers of each kind, split into their segments once. */
  const streams = new Map<string, Array<{ pointer: string; segments: string[] }>>();
  const streamsOf = (kind: string, streamed: (kind: string) => readonly string[]) => {
    let s = streams.get(kind);
    if (!s) {
      s = streamed(kind).map((pointer) => ({
        pointer,
        segments: pointer
          .split('/')
          .slice(1)
          .map((x) => x.replaceAll('~1', '/').replaceAll('~0', '~')),
      }));
      streams.set(kind, s);
    }
    return s;
  };
  /**
   * The junctions at the streamed pointers of one record (after its own strings were scanned). A record scanned
   * in another thread has its split secrets held until the file ends, to be put in line order with that thread's.
   */
  const streamedJunctions = (kind: string, value: unknown, mine: { tails: Junctions; held: OffloadedFinding[] }) => {
    const { streamed } = mode as { streamed: (kind: string) => readonly string[] };
    for (const { pointer, segments } of streamsOf(kind, streamed)) {
      let v: unknown = value;
      for (let i = 0; i < segments.length && v !== null && typeof v === 'object'; i++)
        v = Array.isArray(v) ? v[Number(segments[i])] : (v as Record<string, unknown>)[segments[i]!];
      if (typeof v !== 'string') continue;
      const held = mayHoldSecret(v);
      if (!mine.tails.needs(v, held)) continue;
      let atEnd = false;
      if (held && v.length >= SHORTEST) {
        const found = findSecrets(v);
        atEnd = found.length > 0 && found[found.length - 1]!.end === v.length;
      }
      let n = 0;
      for (const hit of mine.tails.follow(pointer, v, line!, atEnd, held))
        report(pointer, hit.joined, hit.match, `the value at ${pointer}`, n++, hit.tailLine);
    }
  };
  const replay = (e: OffloadedFinding): void =>
    ctx.emit('SECRET_IN_SESSION', e.location, e.message, e.key !== undefined ? { key: e.key } : undefined);
  return {
    doc(d) {
      if (d.value === undefined) return;
      file = d.file;
      line = undefined;
      byteOffset = undefined;
      tails = undefined;
      trie = undefined;
      walk(d.value);
    },
    record({ file: f, kind, record, secretsOffloaded }) {
      if (record.value === undefined) return;
      file = f;
      line = record.line;
      byteOffset = record.byteOffset;
      if (mode === 'none' || mode === 'every') {
        // A large log is scanned in its second thread (engine/parallel/record-offload.ts): its findings come
        // with its end.
        if (secretsOffloaded) return;
        tails = undefined;
        trie = undefined;
        if (mode === 'every') {
          const mine = fileState(f);
          if (mine.trie.size > MAX_PATHS) {
            mine.trie.clear();
            mine.tails.clear();
          }
          tails = mine.tails;
          trie = mine.trie;
        }
        walk(record.value);
        return;
      }
      tails = undefined;
      trie = undefined;
      const mine = fileState(f);
      if (!secretsOffloaded) walk(record.value);
      else if (mine.held.length < MAX_HELD) {
        emitTo = mine.held;
        try {
          streamedJunctions(kind, record.value, mine);
        } finally {
          emitTo = undefined;
        }
        return;
      }
      streamedJunctions(kind, record.value, mine);
    },
    fileEnd({ file: f, secretFindings }) {
      const held = files.get(f)?.held ?? [];
      files.delete(f);
      const list = secretFindings?.list ?? [];
      // In line order, the other thread's first on a line (its strings came before the junctions).
      let j = 0;
      for (const e of list) {
        while (j < held.length && held[j]!.location.line! < e.location.line!) replay(held[j++]!);
        replay(e);
      }
      if (secretFindings?.more) {
        // Past the ones listed only the count and the last count: the split secrets before its line go first.
        const last = secretFindings.last!;
        while (j < held.length && held[j]!.location.line! < last.location.line!) replay(held[j++]!);
        for (let i = 0; i < secretFindings.more; i++) replay(last);
      }
      while (j < held.length) replay(held[j++]!);
    },
  };
}
