/**
 * The contract every agent format implements: everything about one agent lives behind it, in its own folder
 * (src/formats/<agent>/), and the registry lists the modules. Generic code sees a format through this interface
 * (or, in checks and renderers, only through its traits): adding an agent is adding a folder and a registry line.
 */
import type { z } from 'zod';
import type { Check } from '../checks/define.js';
import type { HomeCheck, HomeViews } from '../checks/define-home.js';
import type { RootCheck } from '../checks/define-root.js';
import type { Relocation } from '../lineage/graph.js';
import type { SessionEvent } from '../model/events.js';
import type { Detector, DirProbe, FileSessionHit, FoundSession } from '../model/found.js';
import type { SessionIdentity } from '../model/identity.js';
import type { InventoryEntry } from '../model/inventory.js';
import type { JsonlRecord } from '../model/records.js';
import type { Artifact, FileEndEvent, LoadSink } from '../model/session.js';
import type { SessionSource } from '../model/source.js';
import type { AgentTraits } from './traits.js';

export type { SchemaCode, SchemaIssue } from './traits.js';

/** A zod model and the JSON Schema file generated from it under schemas/. */
export interface SchemaEntry {
  /** File under schemas/. */
  file: string;
  schema: z.ZodType;
}

export interface LoadLimits {
  /** Longest JSONL line parsed; longer lines are JSONL_OVERSIZED_LINE. */
  maxLineBytes: number;
  /** Largest database a format copies and opens (Hermes's SQLite database with its logs; default 2 GiB). */
  maxDbBytes?: number;
}

/** What discovery knows about a directory's candidate files when a file-session format looks at them. */
export interface FileDetection {
  /** The format whose records a file's first lines are (decided once per file across formats), or undefined. */
  sniff(name: string): string | undefined;
  /** `--format-hint` names this format: accept files its name pattern alone marks (first lines damaged). */
  hinted: boolean;
}

/**
 * How a file of a session changes over the session's life, which decides what a change between two captures
 * means: `append-only` logs must still start with the bytes captured earlier; `immutable` evidence never changes;
 * `rewritable` state files are legitimately rewritten.
 */
export type ChangePolicy = 'append-only' | 'immutable' | 'rewritable';

/** What `inspect` says about resuming a session of this agent. */
export interface InspectTraits {
  /** The shell command that resumes the session (`id`: the session's id as found; `identity`: what it records). */
  resumeCommand(id: string, identity: SessionIdentity | undefined): string;
  /** Which sandbox or policy a resume runs under (`lastPolicy`: the last policy the log recorded). */
  resumeSandbox(identity: SessionIdentity | undefined, lastPolicy: string | undefined): string;
  /** What a resume does with `n` calls that have no result. */
  danglingOnResume(n: number): string;
  /** What the agent does with sub-agents that were still running (appended after "N subagent(s) were running"). */
  runningSubagents: string;
  /** What a resume replays, in sentences. */
  replay(r: ReplayCounts): string[];
  /**
   * What the agent's load and resume do to damaged files (they are rewritten or appended to), for the warning to
   * bundle the evidence first.
   */
  damagedOnResume: string;
}

export interface ReplayCounts {
  chatItems: number;
  /** Lines of the conversation the agent's loader skips (damaged; any record we recovered from them is lost too). */
  skippedLines: number;
  danglingCalls: number;
  logLines: number;
  liveTurns: number;
  rewinds: number;
  compactions: number;
}

export interface FormatModule extends AgentTraits {
  /** Where the agent keeps its sessions, relative to the home directory (the default roots of `archive`). */
  homeRoots?: readonly string[];
  /** What a session of this format is on disk, for messages (e.g. "a session directory with its log"). */
  sessionNoun: string;
  /** For formats whose sessions are files: what such a file is called (e.g. "Codex rollout"). */
  fileNoun?: string;
  /** Whether a directory is a session of this format, by the names inside it (file-session formats: 'descend'). */
  detect: Detector;
  /** This format's sessions are directories: a symlink to a directory in a sessions root stands in for one. */
  directorySessions?: boolean;
  /** For formats whose sessions are files: the sessions among a directory's entries, with their members. */
  detectFiles?(probe: DirProbe, ctx: FileDetection): FileSessionHit[];
  /** A directory that is the sidecar folder of a session file that is missing (the session it still is). */
  detectOrphan?(probe: DirProbe): FileSessionHit | undefined;
  /** Whether the first lines of a file are this format's records (`lines`: complete lines; `partial`: a cut one). */
  sniff?(lines: readonly string[], partial: string | undefined): boolean;
  classify(inventory: readonly InventoryEntry[]): Map<string, Artifact>;
  /**
   * Read the session through `source` and report everything to `sink`: docs first, then logs, then one doc of
   * kind IDENTITY_KIND (what the session records about itself), then hash the rest.
   */
  load(source: SessionSource, artifacts: ReadonlyMap<string, Artifact>, sink: LoadSink, limits: LoadLimits): void;
  /**
   * Stream only the authoritative log (for a second pass, e.g. the timeline): every event with its raw record.
   * Undefined when the session has no readable log.
   */
  streamLog(
    source: SessionSource,
    artifacts: ReadonlyMap<string, Artifact>,
    limits: LoadLimits,
    onEvent: (e: SessionEvent, r: JsonlRecord) => void,
  ): FileEndEvent | undefined;
  /**
   * What a record of a JSONL artifact kind looks like (the reader's merged-line recovery uses it). Formats that
   * give it let a large log's per-record checks run in a second thread (engine/parallel/record-offload.ts), by a
   * reader configured exactly like the loader's.
   */
  jsonlShape?(kind: string): ((v: unknown) => boolean) | undefined;
  /** Full text of an event's content (a message, a prompt, a tool output), for outputs that never truncate. */
  eventText(e: SessionEvent, r: JsonlRecord): string;
  /** What the session's identity document says, read alone (cheap); undefined when the format keeps none. */
  identityOf?(source: SessionSource): SessionIdentity | undefined;
  /** A sub-agent's own session, found through the parent's (undefined: none, or not where it should be). */
  childSession?(parent: SessionSource, childId: string): FoundSession | undefined;
  /** The format's own checks, run on its sessions after the generic ones. */
  checks: readonly Check[];
  /** Checks over a whole sessions root, for this format's sessions. */
  rootChecks?: readonly RootCheck[];
  /**
   * The files the agent keeps in its home beside its sessions (prompt histories, indexes, crash registries), as
   * paths relative to the home (the dot-directory of `homeRoots`, or each of them where they name two homes):
   * plain names, or `*` for one whole component (`sessions/*\/prompt_history.jsonl`); and the checks that judge them
   * against the home's sessions.
   */
  home?: {
    files: readonly string[];
    checks: readonly HomeCheck[];
    /** Patterns of `files` never bagged (copies of the user's files, secrets): inventoried and hashed only. */
    withheld?: readonly string[];
    /** What the files that name no session show `inspect` of a session and `lineage` outside every session. */
    views?: HomeViews;
  };
  /** Journals that say which copy of a session id is authoritative, for sessions under these roots. */
  relocations?(roots: ReadonlyArray<{ root: string; path: string }>, home: string | undefined): Map<string, Relocation>;
  /** The JSON Schemas of this format's records, by artifact kind. */
  schemas: Readonly<Record<string, SchemaEntry>>;
  inspect: InspectTraits;
  /** How a file of a session (path relative to it) changes over time, for comparing two captures. */
  changePolicy(rel: string): ChangePolicy;
  /** What deletes a session's old files (the agent's own retention), said when a captured file is gone. */
  cleanup?: string;
  /** This agent's notes on generic finding codes (appended to the catalog's help, `checks CODE`, SARIF rules). */
  codeNotes?: Readonly<Record<string, string>>;
  /** Data type of this format's rows in a Timesketch export. */
  timesketchType: string;
}
