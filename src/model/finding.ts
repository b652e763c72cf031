/** The one shape every problem takes: a stable code, a severity, a message and an exact location. */

export const SEVERITIES = ['error', 'warning', 'note'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The threshold of a gate: exit 1 when a finding is at or above it (`never`: no gate). */
export type FailOn = Severity | 'never';

/** Lower rank = more severe. */
export const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, note: 2 };

export interface Location {
  /** Path relative to the audited session directory ('' for the directory itself). */
  file: string;
  /** 1-based line number inside a JSONL file. */
  line?: number;
  /** 0-based byte offset of the line (or of the damage inside it) from the start of the file. */
  byteOffset?: number;
  byteLength?: number;
  /** RFC 6901 JSON Pointer into the record, where the problem is inside one. */
  pointer?: string;
}

export interface Finding {
  code: string;
  severity: Severity;
  message: string;
  /** Id of the check that produced it. */
  check: string;
  /** Session id (directory name) and the session directory's display path. */
  session: string;
  sessionPath: string;
  location: Location;
  /**
   * Stable identity for baselines: hash of code, session, file, pointer, a check-chosen key, a digest of the bytes
   * the finding points at and its occurrence among identical ones (no line number: it survives inserted lines).
   */
  fingerprint: string;
}

/** The codes a record's schema check reports (the format's validator chooses among them). */
export type SchemaCode = 'SCHEMA_VIOLATION' | 'SCHEMA_UNKNOWN_TYPE' | 'SCHEMA_NOT_PERSISTED' | 'SCHEMA_LEGACY_RECORD';

export interface CodeInfo {
  severity: Severity;
  /** One line: what the code means. */
  title: string;
  /** Why it matters, legitimate causes, what to do. Shown by `checks CODE`. */
  help: string;
}
