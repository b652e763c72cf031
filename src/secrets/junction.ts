/**
 * Secrets split between two streamed chunks: an agent writes a message as many records, each holding a piece of
 * its text at the same place (JSON Pointer), so a key can start in one record and end in the next. For each
 * pointer the tail of the last string seen there is kept; a new string at the same pointer is joined to it and a
 * secret that crosses the junction is a hit. One routine for the SECRET_IN_SESSION check (which reports it) and
 * for `bundle --redact` (which redacts both halves).
 */
import { BUILTIN_DETECTORS, findSecrets, type Detector, type SecretMatch } from './detectors.js';
import { mayHoldSecret, mayStartSecret } from './literals.js';

/** The longest run of a secret's characters looked for across two chunks (each side). */
const JUNCTION = 4096;
/** Room around the junction's runs for a header or variable name and the value after it. */
const WINDOW = 96;
/** Pointers remembered per file. */
const MAX_POINTERS = 10_000;

/** ASCII white space and the common Unicode spaces (a secret never holds one). */
export const isSpaceAt = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff;
};

interface Tail {
  text: string;
  /** A secret found in this string runs to its end (a junction would find it again). */
  secretAtEnd: boolean;
  line: number;
}

/** A secret across a junction: the match in `joined` (the earlier string's tail, then this string's start). */
export interface SplitSecret {
  match: SecretMatch;
  joined: string;
  /** Where the earlier string's part ends in `joined`. */
  at: number;
  /** The line of the earlier string. */
  tailLine: number;
  /** The secret's value in the earlier string (its end) and in this one (its start). */
  tailPart: string;
  headPart: string;
}

/** The junctions of one file. */
export class Junctions {
  private readonly tails = new Map<string | number, Tail>();
  /**
   * With the built-in detectors alone, a string in which no secret can start (literals.ts `mayStartSecret`) is
   * not remembered: no junction after it can hold a secret whose value starts in it. While a file keeps no tail,
   * its strings need no pointer at all (`needs`); real logs often keep a few (a chunk ending in `e` may be
   * followed by `yJ…`), and then every string is followed.
   */
  private readonly prune: boolean;
  constructor(private readonly detectors: readonly Detector[] = BUILTIN_DETECTORS) {
    this.prune = detectors === BUILTIN_DETECTORS;
  }

  /**
   * Whether `follow` must see this string (false: it would find nothing and remember nothing); `held`: what
   * `mayHoldSecret` said of it, when the caller knows.
   */
  needs(text: string, held?: boolean): boolean {
    return this.tails.size > 0 || !this.prune || this.keeps(text, held);
  }

  /** Forget every string (the caller's pointer keys start again). */
  clear(): void {
    this.tails.clear();
  }

  private keeps(text: string, held?: boolean): boolean {
    return text.length > 0 && !isSpaceAt(text, text.length - 1) && (!this.prune || mayStartSecret(text, held));
  }

  /**
   * After a string at `pointer` on `line` (`secretAtEnd`: a secret found in it runs to its end): the secrets
   * split between the last string at this pointer and this one; then this string becomes the last. The pointer
   * may be its text or any key that stands for one text alone (paths.ts). `held`: what `mayHoldSecret(text)` said,
   * when the caller knows (it is not asked again).
   */
  follow(pointer: string | number, text: string, line: number, secretAtEnd: boolean, held?: boolean): SplitSecret[] {
    const t = this.tails;
    const before = t.get(pointer);
    const hits = before && !before.secretAtEnd && text.length && !isSpaceAt(text, 0) ? this.junction(text, before) : [];
    if (this.keeps(text, held)) {
      if (t.size >= MAX_POINTERS && !before) t.clear();
      t.set(pointer, { text: text.length > JUNCTION ? text.slice(-JUNCTION) : text, secretAtEnd, line });
    } else if (before) t.delete(pointer);
    return hits;
  }

  /** Looked for in a window around the junction: the runs of non-space characters on each side, plus room. */
  private junction(text: string, before: Tail): SplitSecret[] {
    const tail = before.text.slice(-(tokenRunBack(before.text) + WINDOW));
    const joined = tail + text.slice(0, tokenRunAhead(text) + WINDOW);
    const builtinOnly = this.detectors === BUILTIN_DETECTORS;
    if (builtinOnly && !mayHoldSecret(joined)) return [];
    const at = tail.length;
    return findSecrets(joined, this.detectors)
      .filter((m) => m.valueStart < at && m.end > at)
      .map((match) => ({
        match,
        joined,
        at,
        tailLine: before.line,
        tailPart: joined.slice(match.valueStart, at),
        headPart: joined.slice(at, match.end),
      }));
  }
}

/** Characters of the run of non-space characters that ends `text` (at most JUNCTION). */
function tokenRunBack(text: string): number {
  let i = text.length;
  while (i > 0 && text.length - i < JUNCTION && !isSpaceAt(text, i - 1)) i--;
  return text.length - i;
}

/** Characters of the run of non-space characters that starts `text` (at most JUNCTION). */
function tokenRunAhead(text: string): number {
  let i = 0;
  while (i < text.length && i < JUNCTION && !isSpaceAt(text, i)) i++;
  return i;
}
