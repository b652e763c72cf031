/** The contract every agent format implements; format knowledge lives only behind it. */
import type { Detector, DirProbe, FileSessionHit, FoundSession } from '../read/discover.js';
import type { PairingDialect } from '../pairing/dialect.js';
import type { SessionSource } from '../read/source.js';
import type { Artifact, FileEndEvent, LoadSink } from '../model/session.js';
import type { SessionEvent } from '../model/events.js';
import type { JsonlRecord } from '../read/jsonl.js';
import type { InventoryEntry } from '../model/inventory.js';

export type SchemaCode = 'SCHEMA_VIOLATION' | 'SCHEMA_UNKNOWN_TYPE' | 'SCHEMA_NOT_PERSISTED' | 'SCHEMA_LEGACY_RECORD';

export interface SchemaIssue {
  code: SchemaCode;
  /** JSON Pointer into the record or document. */
  pointer: string;
  message: string;
}

export interface LoadLimits {
  /** Longest JSONL line parsed; longer lines are JSONL_OVERSIZED_LINE. */
  maxLineBytes: number;
}

/** What discovery knows about a directory's candidate files when a file-session format looks at them. */
export interface FileDetection {
  /** The format whose records a file's first lines are (decided once per file across formats), or undefined. */
  sniff(name: string): string | undefined;
  /** `--format-hint` names this format: accept files its name pattern alone marks (first lines damaged). */
  hinted: boolean;
}

export interface FormatModule {
  name: string;
  /** The agent, as messages name it (default "Grok Build"). */
  displayName?: string;
  detect: Detector;
  /** For formats whose sessions are files: the sessions among a directory's entries, with their members. */
  detectFiles?(probe: DirProbe, ctx: FileDetection): FileSessionHit[];
  /** A directory that is the sidecar folder of a session file that is missing (the session it still is). */
  detectOrphan?(probe: DirProbe): FileSessionHit | undefined;
  /** Whether the first lines of a file are this format's records (`lines`: complete lines; `partial`: a cut one). */
  sniff?(lines: readonly string[], partial: string | undefined): boolean;
  /** How tool results must be placed and what the agent does about pairing problems (default: Grok Build's). */
  pairing?: PairingDialect;
  /** The command that resumes a session, for `inspect` (default: Grok's). */
  resumeCommand?(id: string, cwd: string | undefined): string;
  classify(inventory: readonly InventoryEntry[]): Map<string, Artifact>;
  /** Read the session through `source` and report everything to `sink`, docs first, then logs. */
  load(source: SessionSource, artifacts: ReadonlyMap<string, Artifact>, sink: LoadSink, limits: LoadLimits): void;
  /** Schema-check one JSONL record or one JSON document of the given artifact kind. */
  validate(kind: string, value: unknown): SchemaIssue[];
  /**
   * Stream only the authoritative log (for a second pass, e.g. the timeline): every event with its raw record.
   * Undefined when the session has no readable log.
   */
  streamLog(source: SessionSource, artifacts: ReadonlyMap<string, Artifact>, limits: LoadLimits, onEvent: (e: SessionEvent, r: JsonlRecord) => void): FileEndEvent | undefined;
  /**
   * What a record of a JSONL artifact kind looks like (the reader's merged-line recovery uses it). Formats that
   * give it let large logs be schema-checked in a second thread, by a reader configured exactly like the loader's.
   */
  jsonlShape?(kind: string): ((v: unknown) => boolean) | undefined;
  /** Full text of an event's content (a message, a prompt, a tool output), for outputs that never truncate. */
  eventText(e: SessionEvent, r: JsonlRecord): string;
  /** Absolute directory of a subagent's own session, given the parent's location and cwd. */
  childSessionDir(parent: FoundSession, parentCwd: string | undefined, childId: string, childCwd?: string): string | undefined;
}
