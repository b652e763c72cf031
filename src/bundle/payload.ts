/**
 * The payload of a bag: every regular file of every bundled session, byte for byte (or redacted), with the
 * digests the manifests need. Pass 1 hashes; pass 2 streams the same bytes into the archive and checks they
 * did not change in between. Symlinks, FIFOs, devices and unreadable entries are inventoried, never archived.
 */
import { createHash, type Hash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import type { SessionSource } from '../model/source.js';
import { ReadError } from '../read/open-regular.js';
import type { FileRecord } from '../model/report.js';
import type { ArtifactRole } from '../model/session.js';
import { redactJsonLine, redactText, type Redactor } from './redact.js';
import { noteJsonLine, noteSecrets, type SecretLedger } from './derived.js';
import { findSplitParts, withParts, type SplitParts } from './split-secrets.js';

export type ContentClass = 'jsonl' | 'json' | 'text' | 'binary';

export interface PayloadFile {
  /** Path inside the bag (`data/<group>/<session>/<file>`). */
  bagPath: string;
  source: SessionSource;
  rel: string;
  cls: ContentClass;
  size: number;
  sha256: string;
  sha512: string;
  originalSize: number;
  originalSha256: string;
  redactions: number;
  /** With --redact, a log's parts of secrets split across streamed chunks, by line (pass 2 redacts them too). */
  splitParts?: SplitParts;
}

export interface NotArchived {
  bagPath: string;
  type: FileRecord['type'];
  linkTarget?: string;
  reason: string;
  /** The file's path in its session (`verify --against` finds the live file by it). */
  originalPath?: string;
  /** A withheld file's digest and size: `verify --against` compares the live file with them. */
  originalSha256?: string;
  originalSize?: number;
}

const WHOLE_TEXT_LIMIT = 64 * 1024 * 1024;

/** Why `--redact` leaves a file out of the payload. */
export const WITHHELD_BY_FORMAT =
  "withheld: a copy of the user's files or a secret the agent keeps, inventoried and hashed, never bagged";
export const WITHHELD = 'withheld by --redact: not text, so it cannot be redacted (bundle without --redact to keep it)';

/** How a file is redacted: by its name, and by what its format says it is (its artifact role). */
export function contentClass(rel: string, role?: ArtifactRole): ContentClass {
  if (/\.jsonl$/.test(rel) || role === 'quarantine') return 'jsonl';
  if (/\.json$/.test(rel)) return 'json';
  if (/\.(txt|md|rhai|toml|ya?ml|log|ini|cfg|conf|env|sh|csv|diff|patch|xml|html?)$/i.test(rel) || role === 'text')
    return 'text';
  return 'binary';
}

/** Turns raw chunks into redacted chunks, line by line for logs, whole for documents and text. */
class Transformer {
  private pending: Buffer[] = [];
  private lineNo = 0;
  redactions = 0;
  constructor(
    private readonly cls: ContentClass,
    private readonly r: Redactor | undefined,
    /** Where the secret values found go (pass 1 only: derived members are scrubbed of them). */
    private readonly ledger?: SecretLedger,
    /** The parts of split secrets, by line (jsonl). */
    private readonly parts?: SplitParts,
  ) {}

  push(chunk: Buffer): Buffer[] {
    if (!this.r || this.cls === 'binary') return [chunk];
    if (this.cls !== 'jsonl') {
      this.pending.push(chunk);
      return [];
    }
    const out: Buffer[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      const line = Buffer.concat([...this.pending, chunk.subarray(start, nl)]);
      this.pending = [];
      out.push(this.line(line), Buffer.from('\n'));
      start = nl + 1;
    }
    if (start < chunk.length) this.pending.push(Buffer.from(chunk.subarray(start)));
    return out;
  }

  end(): Buffer[] {
    if (!this.r || this.cls === 'binary') return [];
    const rest = Buffer.concat(this.pending);
    this.pending = [];
    if (this.cls === 'jsonl') return rest.length ? [this.line(rest)] : [];
    if (rest.length > WHOLE_TEXT_LIMIT || !isUtf8(rest)) return [rest];
    const t =
      this.cls === 'json' ? redactJsonLine(rest.toString('utf8'), this.r) : redactText(rest.toString('utf8'), this.r);
    this.redactions += t.n;
    if (t.n && this.ledger) {
      if (this.cls === 'json') noteJsonLine(rest.toString('utf8'), this.r, this.ledger);
      else noteSecrets(rest.toString('utf8'), this.r, this.ledger);
    }
    return [Buffer.from(t.text, 'utf8')];
  }

  private line(b: Buffer): Buffer {
    this.lineNo++;
    // A line that is not UTF-8 cannot be redacted without changing other bytes: it is kept as it is.
    if (!isUtf8(b)) return b;
    const split = this.parts?.get(this.lineNo);
    const r = split ? withParts(this.r!, split) : this.r!;
    const t = redactJsonLine(b.toString('utf8'), r);
    if (!t.n) return b;
    this.redactions += t.n;
    if (this.ledger) noteJsonLine(b.toString('utf8'), r, this.ledger);
    return Buffer.from(t.text, 'utf8');
  }
}

interface Digests {
  sha256: Hash;
  sha512: Hash;
  size: number;
}

const digests = (): Digests => ({ sha256: createHash('sha256'), sha512: createHash('sha512'), size: 0 });
const feed = (d: Digests, b: Buffer): void => {
  d.sha256.update(b);
  d.sha512.update(b);
  d.size += b.length;
};

/** Pass 1: read every file once, hashing the original and the payload form. */
export function planPayload(
  files: ReadonlyArray<{ source: SessionSource; rel: string; bagPath: string; role?: ArtifactRole }>,
  r: Redactor | undefined,
  ledger?: SecretLedger,
): { payload: PayloadFile[]; problems: NotArchived[]; withheld: Array<{ source: SessionSource; rel: string }> } {
  const payload: PayloadFile[] = [];
  const problems: NotArchived[] = [];
  const withheld: Array<{ source: SessionSource; rel: string }> = [];
  for (const f of files) {
    const cls = contentClass(f.rel, f.role);
    if (f.role === 'withheld' || (r && cls === 'binary')) {
      // A database, an image or any bytes that are not text cannot be redacted: a redacted bag leaves them out.
      // A file its format withholds (copies of the user's files, secrets) is left out of every bag.
      // Its digest is recorded all the same, so that a later capture or the live file can be compared with it.
      const reason = f.role === 'withheld' ? WITHHELD_BY_FORMAT : WITHHELD;
      const hashed = f.source.streamRaw(f.rel, () => {});
      problems.push({
        bagPath: f.bagPath,
        type: 'file',
        reason,
        originalPath: f.rel,
        ...(hashed.ok ? { originalSha256: hashed.value.sha256, originalSize: hashed.value.size } : {}),
      });
      withheld.push({ source: f.source, rel: f.rel });
      continue;
    }
    const splitParts = r && cls === 'jsonl' ? findSplitParts(f.source, f.rel, r) : undefined;
    const t = new Transformer(cls, r, ledger, splitParts);
    const d = digests();
    const res = f.source.streamRaw(f.rel, (chunk) => {
      for (const o of t.push(chunk)) feed(d, o);
    });
    if (!res.ok) {
      problems.push({ bagPath: f.bagPath, type: 'file', reason: res.error, originalPath: f.rel });
      continue;
    }
    for (const o of t.end()) feed(d, o);
    payload.push({
      bagPath: f.bagPath,
      source: f.source,
      rel: f.rel,
      cls,
      size: d.size,
      sha256: d.sha256.digest('hex'),
      sha512: d.sha512.digest('hex'),
      originalSize: res.value.size,
      originalSha256: res.value.sha256,
      redactions: t.redactions,
      ...(splitParts?.size ? { splitParts } : {}),
    });
  }
  return { payload, problems, withheld };
}

export class ChangedDuringBundling extends Error {}

/** Pass 2: the same bytes again, for the archive; throws if the file changed since pass 1. */
export async function* payloadChunks(p: PayloadFile, r: Redactor | undefined): AsyncGenerator<Buffer> {
  const t = new Transformer(
    p.cls,
    r ? { patterns: r.patterns, counts: new Map() } : undefined,
    undefined,
    p.splitParts,
  );
  const d = digests();
  const where = `${p.source.found.display}/${p.rel}`;
  try {
    for await (const chunk of p.source.rawChunks(p.rel)) {
      for (const o of t.push(chunk)) {
        feed(d, o);
        yield o;
      }
    }
  } catch (e) {
    if (!(e instanceof ReadError)) throw e;
    throw new ChangedDuringBundling(
      `${where} disappeared or became unreadable while it was being archived (${e.message})`,
    );
  }
  for (const o of t.end()) {
    feed(d, o);
    yield o;
  }
  if (d.sha256.digest('hex') !== p.sha256 || d.size !== p.size)
    throw new ChangedDuringBundling(`${where} changed while it was being archived`);
}
