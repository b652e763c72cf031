/** What checks see of a session: its identity, inventory and classified artifacts, and the loader's events. */
import type { Damage, JsonlRecord, JsonlStats } from './records.js';
import type { Location, SchemaCode } from './finding.js';
import type { FoundSession } from './found.js';
import type { InventoryEntry } from './inventory.js';
import type { ChatItem, DeadRanges, SessionEvent } from './events.js';

export type ArtifactRole =
  | 'jsonl' // an append-only log we parse line by line
  | 'json' // a JSON document we parse whole
  | 'text'
  | 'binary'
  | 'lock' // flock sidecar, content irrelevant
  | 'temp' // leftover of an interrupted temp+rename write
  | 'quarantine' // evidence copy written by the agent itself
  | 'transient' // probe file the agent creates and removes
  | 'dir'
  | 'foreign' // known, but written by a non-upstream build
  | 'secret' // credentials: never in a bag (hashed, listed as withheld)
  | 'unexpected';

export interface Artifact {
  path: string;
  /** Format-specific kind, e.g. 'summary', 'updates', 'chat', 'checkpoint'. */
  kind: string;
  role: ArtifactRole;
  /** Why the classification was made, for messages (e.g. which writer leaves such a temp file). */
  note?: string;
}

export interface SessionInfo {
  id: string;
  /** Display path of the session directory. */
  path: string;
  format: string;
  found: FoundSession;
  inventory: readonly InventoryEntry[];
  artifacts: ReadonlyMap<string, Artifact>;
}

export type DocProblem = 'empty' | 'invalid-utf8' | 'not-json' | 'too-deep' | 'too-large' | 'unreadable';

export interface DocEvent {
  file: string;
  kind: string;
  value?: unknown;
  problem?: { kind: DocProblem; detail: string; byteOffset?: number };
  size: number;
  /** One object of the document repeats a key (JSON.parse kept the last value; other parsers differ). */
  duplicateKey?: { key: string; pointer: string };
}

export interface RecordEvent {
  file: string;
  kind: string;
  record: JsonlRecord;
  /** The record's schema check runs in another thread; its issues arrive with the file's FileEndEvent. */
  offloaded?: boolean;
  /** The record is scanned for secrets in another thread; the findings arrive with the file's FileEndEvent. */
  secretsOffloaded?: boolean;
}

/** A finding a check made in another thread, as it emitted it: replayed through its own `emit`, in order. */
export interface OffloadedFinding {
  code: string;
  location: Location;
  message: string;
  key?: string;
}

/**
 * The SECRET_IN_SESSION findings of a log checked in another thread: the first ones (as many as a file lists
 * individually), then how many more there were and the last of them.
 */
export interface OffloadedSecrets {
  list: OffloadedFinding[];
  more: number;
  last?: OffloadedFinding;
}

/** A schema issue of one JSONL record, found by the offloaded check. */
export interface RecordIssue {
  line: number;
  byteOffset: number;
  code: SchemaCode;
  pointer: string;
  message: string;
}

export interface DamageEvent {
  file: string;
  kind: string;
  damage: Damage;
}

export interface FileEndEvent {
  file: string;
  kind: string;
  stats?: JsonlStats;
  error?: string;
  /** For the authoritative log: the seq ranges rewound off the live branch, and the counted turns left on it. */
  dead?: DeadRanges;
  liveTurns?: number;
  /** For a file whose records were schema-checked in another thread: the issues, in record order. */
  schemaIssues?: RecordIssue[];
  /** For a file whose records were scanned for secrets in another thread: the findings, in record order. */
  secretFindings?: OffloadedSecrets;
}

/**
 * Everything a loader tells the checks, in order: docs first, then each JSONL file's records and damage.
 * Records of the authoritative log also arrive normalized as `event`, and of the conversation as `chat`,
 * right after their raw `record`.
 */
export interface LoadSink {
  doc(d: DocEvent): void;
  record(r: RecordEvent): void;
  event(e: SessionEvent): void;
  chat(c: ChatItem): void;
  damage(d: DamageEvent): void;
  fileEnd(f: FileEndEvent): void;
}

/** Something that watches a session load: every hook of the sink (optional), and the end of the session. */
export interface SessionObserver {
  doc?(d: DocEvent): void;
  record?(r: RecordEvent): void;
  event?(e: SessionEvent): void;
  chat?(c: ChatItem): void;
  damage?(d: DamageEvent): void;
  fileEnd?(f: FileEndEvent): void;
  end?(): void;
}

/** Evidence from outside the session directory, given on the command line (what CI captured around a run). */
export interface AuditExtras {
  /** The agent's own output of the run, as given on the command line (`inspect --headless-log`). */
  headlessLog?: { path: string; bytes: Buffer } | { path: string; error: string };
  /** The exit code of the agent's process (`inspect --exit-code`). */
  exitCode?: number;
}
