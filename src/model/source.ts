/**
 * A session as the loaders see it: its inventory and read operations, nothing else of the file system. The one
 * implementation that touches input files is read/source.ts (fsSource); tests may supply in-memory sources.
 */
import type { FoundSession } from './found.js';
import type { InventoryEntry } from './inventory.js';
import type { Damage, JsonlOptions, JsonlRecord, JsonlStats } from './records.js';

/** The producer's side of a ring of shared read buffers (read/chunk-ring.ts): another thread consumes the bytes. */
export interface SharedRing {
  /** The next free slot to read into (undefined: the consumer is gone). */
  slot(): Buffer | undefined;
  /** Publish the slot just filled with `n` bytes. */
  publish(n: number): void;
  /** The whole file went through the ring. */
  close(): void;
  /** The producer stops sharing (its read failed, or it gave up). */
  abandon(): void;
}

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface SessionSource {
  readonly found: FoundSession;
  /** Every entry under the session directory, sorted by path. Hashes are filled in as files are read. */
  readonly inventory: readonly InventoryEntry[];
  entry(rel: string): InventoryEntry | undefined;
  readFile(rel: string, maxBytes: number): ReadOutcome<{ bytes: Buffer; truncated: boolean }>;
  /** Stream a JSONL file through the tolerant reader; `limit`: only its first `limit` bytes. */
  streamJsonl(
    rel: string,
    options: JsonlOptions,
    onRecord: (r: JsonlRecord) => void,
    onDamage: (d: Damage) => void,
    limit?: number,
  ): ReadOutcome<JsonlStats>;
  /**
   * Bytes at given places of a regular file, after the audit (the fingerprint of a finding digests the line it
   * points at; the HTML report shows it): from `offset`, at most `max` bytes, up to the first newline when `line` is
   * set; from the bytes the audit read when the source kept them (a small file), else read back. Does not change
   * the inventory.
   */
  readSpans(rel: string, spans: ReadonlyArray<{ offset: number; max: number; line: boolean }>): ReadOutcome<Buffer[]>;
  /** Hash every regular file not read yet (chain of custody for the whole directory). */
  hashUnread(): void;
  /**
   * The next streamJsonl of `rel` reads the file into the ring `begin()` returns as the read starts (undefined: a
   * plain read), where another thread consumes (and hashes) the same bytes; nothing is hashed here. `adoptHash` then
   * records that thread's hash, which is accepted only if every
   * byte went through the ring. A later read of the same file (the fallback when the other thread failed) is
   * compared with this one by the file's stamps: if the file changed in between, it is left without a hash and
   * marked as changed during the audit.
   */
  shareRead(rel: string, begin: () => SharedRing | undefined): void;
  adoptHash(rel: string, sha256: string, size: number): boolean;
  /** The raw bytes of a regular file, pulled chunk by chunk (for copying evidence into a bundle). */
  rawChunks(rel: string): AsyncGenerator<Buffer>;
  /** Stream a regular file's raw bytes synchronously; returns its hash and size. */
  streamRaw(rel: string, onChunk: (chunk: Buffer) => void): ReadOutcome<{ sha256: string; size: number }>;
  /** A file of the enclosing group directory (a group's own metadata), read-only; undefined when absent. */
  readGroupFile(name: string, maxBytes: number): ReadOutcome<Buffer> | undefined;
  /**
   * A file of another session in the same sessions root (`<root>/<group>/<session>/<file>`), read-only;
   * undefined when it does not exist. Names are single path components: nothing outside the root is reachable.
   */
  readSibling(group: string, session: string, file: string, maxBytes: number): ReadOutcome<Buffer> | undefined;
  /**
   * Stream a JSONL file `up` directories above the session's directory (`name` a relative path of plain components),
   * read-only and never part of the session's evidence: the context a format needs to resolve links out of a file
   * audited alone (a Claude sub-agent's transcript links into its session's transcript). Undefined when absent.
   */
  streamContext(
    up: number,
    name: string,
    options: JsonlOptions,
    onRecord: (r: JsonlRecord) => void,
  ): ReadOutcome<JsonlStats> | undefined;
}
