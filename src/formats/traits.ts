/**
 * What the generic checks, observers and renderers may know of an agent: its names, how its records are
 * validated, its pairing dialect, its timeline rules, what its reader does with damaged lines, and the document (if
 * any) that makes a directory one of its sessions. A format module is these traits plus its loader and its own
 * checks (formats/types.ts); generic code sees only the traits, so it never needs to name an agent.
 */
import type { SchemaCode } from '../model/finding.js';
import type { DamageCode } from '../model/records.js';
import type { PairingDialect } from '../pairing/dialect.js';
import type { TimelineRules } from '../timeline/rules.js';
import type { ToolResultView, ToolViewFn } from './tool-view.js';
import type { TranscriptViewTrait } from './transcript-view.js';

export type { SchemaCode };

export interface SchemaIssue {
  code: SchemaCode;
  /** JSON Pointer into the record or document. */
  pointer: string;
  message: string;
}

/** The document whose presence makes a directory a session of the agent (its commit marker). */
export interface SessionDocument {
  /** Its path inside the session directory, and its artifact kind. */
  path: string;
  kind: string;
  /** What the agent does when the document is empty or does not parse (e.g. "Grok cannot load this session"). */
  unloadable: string;
  /** What the agent does without it. */
  missing: string;
  /** What the agent does when it is not a regular file. */
  notRegular: string;
}

/** What the agent does about lineage problems, for the messages of the checks over a tree of sessions. */
export interface LineageTexts {
  /**
   * Why a session of kind subagent that no session under the root lists is suspect (follows "a subagent session, but").
   */
  unclaimedSubagent: string;
  /** What the agent does when one session id exists in two places with nothing to say which copy counts. */
  duplicateId: string;
  /** How grave such a copy is for this agent when it makes them itself (absent: the code's default, an error). */
  duplicateIdSeverity?: 'warning' | 'note';
}

export interface AgentTraits {
  /** The registry name, as `--format-hint` takes it and reports record it (e.g. "grok"). */
  name: string;
  /** The agent as messages name it in full (e.g. "Grok Build"). */
  displayName: string;
  /** The agent in a sentence (e.g. "Grok"). */
  shortName: string;
  /** Schema-check one JSONL record or one JSON document of the given artifact kind (unknown kinds: no issue). */
  validate(kind: string, value: unknown): SchemaIssue[];
  pairing: PairingDialect;
  /** What each of its tools does (a command, a file written, the web reached), from a call's name and arguments. */
  toolView: ToolViewFn;
  /** What its tool results say about their calls: exit codes, refusals, the working directory of a line. */
  toolResults: ToolResultView;
  timeline: TimelineRules;
  /** What the agent's own reader does with a damaged line, appended to the reader's description of the damage. */
  damageNotes: Partial<Record<DamageCode, string>>;
  /**
   * What the agent's own JSON parser does with a key repeated in one object: `rejectsRecord` when it refuses a record
   * whose top-level fields repeat (serde's "duplicate field"), so the agent never sees that record; `text` says so.
   */
  duplicateKeys: { rejectsRecord: boolean; text: string };
  /** The document that makes a directory a session (absent: a session is its log files). */
  sessionDocument?: SessionDocument;
  lineage: LineageTexts;
  /**
   * What the agent itself does with a session directory that is a symlink (e.g. "Grok skips symlinked sessions too").
   */
  symlinkedSession?: string;
  /** Its tools for readers: the calls and results a record holds, and what a call is (formats/transcript-view.ts). */
  transcriptView: TranscriptViewTrait;
  /**
   * Where its JSONL logs stream text, by artifact kind: the JSON Pointers at which a record holds one chunk of a
   * longer text (a message written as many records), empty for a kind that streams none. SECRET_IN_SESSION looks
   * for a secret running from one chunk into the next at these pointers alone, which lets the rest of its scan skip
   * every line whose raw bytes hold none of the detectors' literals (secrets/raw-literals.ts). Absent: a junction
   * is looked for at every pointer, and every line is parsed for the scan.
   */
  streamedText?: (kind: string) => readonly string[];
}
