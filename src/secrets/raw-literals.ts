/**
 * The detectors' literals (literals.ts) searched in a log's raw bytes, before any decoding or parse: one pass of
 * Google RE2 (node-re2, a native addon, linear time) over each block the reader holds names the lines that may hold
 * a secret. A line it does not name holds no string in which `mayHoldSecret` is true: every literal is ASCII, and a
 * literal's character written as a JSON escape (`\u0073`, `\/`) makes the line a candidate too, as does any case of
 * the any-case literals (RE2 folds a few non-ASCII letters as well: more candidates, never fewer).
 *
 * When the addon cannot be loaded (not built, another Node ABI) `rawLiterals` is undefined and callers keep the
 * JavaScript scan of every string: the tool never depends on it. `SESSION_AUDIT_NO_RE2=1` forces that route.
 */
import { createRequire } from 'node:module';
import { LITERALS } from './literals.js';

interface Re2 {
  lastIndex: number;
  exec(input: Buffer): { index: number } | null;
}
type Re2Ctor = new (pattern: string, flags?: string) => Re2;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/**
 * The pattern: the cased literals, the any-case ones, a `\u` escape of a printable ASCII character (0x20-0x7f) and
 * an escaped slash. The any-case literals are asked here without the colon or equals sign `mayHoldSecret` wants
 * beside them: a record always holds one.
 */
export const RAW_PATTERN = [
  ...LITERALS.cased.map(escapeRe),
  `(?i:${LITERALS.anyCase.map(escapeRe).join('|')})`,
  '\\\\u00[2-7][0-9a-fA-F]',
  '\\\\/',
].join('|');

function load(): Re2Ctor | undefined {
  if (process.env.SESSION_AUDIT_NO_RE2) return undefined;
  try {
    const ctor = createRequire(import.meta.url)('re2') as Re2Ctor;
    // A load that succeeds but cannot match is no better than none.
    const probe = new ctor('sk-|(?i:pass)', 'g');
    return probe.exec(Buffer.from('a PASS')) ? ctor : undefined;
  } catch {
    return undefined;
  }
}

/** The lines of a block that may hold a secret, found in one native pass. */
export class RawLiterals {
  private readonly re: Re2;
  constructor(ctor: Re2Ctor) {
    this.re = new ctor(RAW_PATTERN, 'g');
  }

  /**
   * Calls `line(start, end)` for each line of `block` (split on 0x0A; `end` excludes the newline, the last line
   * runs to the block's end) that holds a literal, in order. A line that runs on past the block is the caller's to
   * test whole once it is complete (`lineHolds`).
   */
  candidates(block: Buffer, line: (start: number, end: number) => void): void {
    const re = this.re;
    re.lastIndex = 0;
    for (let m = re.exec(block); m; m = re.exec(block)) {
      const start = m.index === 0 ? 0 : block.lastIndexOf(10, m.index - 1) + 1;
      const nl = block.indexOf(10, m.index);
      const end = nl === -1 ? block.length : nl;
      line(start, end);
      if (nl === -1) break;
      re.lastIndex = nl + 1;
    }
  }

  /** Whether one whole line holds a literal. */
  lineHolds(bytes: Buffer): boolean {
    this.re.lastIndex = 0;
    return this.re.exec(bytes) !== null;
  }
}

let loaded: RawLiterals | undefined | null = null;
/** The native search, or undefined when the addon is not there (callers scan every string instead). */
export function rawLiterals(): RawLiterals | undefined {
  if (loaded === null) {
    const ctor = load();
    loaded = ctor ? new RawLiterals(ctor) : undefined;
  }
  return loaded;
}

/**
 * Which lines of a log, fed block by block, the native pass names (for a JSONL reader's `select`): `block` is told
 * each block before the reader sees it, `holds` is asked of each line by its byte offset in the log. A line begun in
 * an earlier block is searched whole, once complete (a literal may straddle the blocks' boundary).
 */
export class CandidateLines {
  private starts: number[] = [];
  private next = 0;
  private blockStart = 0;
  private blockEnd = 0;
  constructor(private readonly raw: RawLiterals) {}

  block(chunk: Buffer): void {
    const at = this.blockEnd;
    this.blockStart = at;
    this.blockEnd = at + chunk.length;
    this.starts = [];
    this.next = 0;
    this.raw.candidates(chunk, (start) => this.starts.push(at + start));
  }

  readonly holds = (offset: number, bytes: Buffer): boolean => {
    if (offset < this.blockStart) return this.raw.lineHolds(bytes);
    const s = this.starts;
    while (this.next < s.length && s[this.next]! < offset) this.next++;
    return this.next < s.length && s[this.next] === offset;
  };
}
