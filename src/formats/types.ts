/** The contract every agent format implements; format knowledge lives only behind it. */
import type { Detector, FoundSession } from '../read/discover.js';
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

export interface FormatModule {
  name: string;
  detect: Detector;
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
  /** Full text of an event's content (a message, a prompt, a tool output), for outputs that never truncate. */
  eventText(e: SessionEvent, r: JsonlRecord): string;
  /** Absolute directory of a subagent's own session, given the parent's location and cwd. */
  childSessionDir(parent: FoundSession, parentCwd: string | undefined, childId: string, childCwd?: string): string | undefined;
}
