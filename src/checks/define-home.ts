/**
 * Checks over an agent's home: the files it keeps beside its sessions (prompt histories, search indexes, crash
 * registries), read once the home's sessions are found and judged against them. They outlive the logs: a session
 * such a file knows whose log is gone is reported, with what the file still holds of it.
 */
import type { SessionEvent } from '../model/events.js';
import type { CodeInfo, Location, Severity } from '../model/finding.js';
import type { FoundHome, FoundSession } from '../model/found.js';
import type { HomeViewSection } from '../model/home-view.js';
import type { SessionIdentity } from '../model/identity.js';
import type { JsonlRecord } from '../model/records.js';
import type { SessionSource } from '../model/source.js';

/** A session a home's file knows whose log is not in the home: a row of the `sessions` list marked "gone". */
export interface GoneSession {
  id: string;
  /** The home's file that knows it, relative to the home. */
  source: string;
  /** The first and last times that file records for it (ISO 8601). */
  firstAt?: string;
  lastAt?: string;
  /** How many prompts (or entries) the file holds of it. */
  prompts: number;
  cwd?: string;
  /** Its title, or its first prompt as a short excerpt with every secret redacted. */
  excerpt?: string;
}

export interface HomeCheckContext<C extends string = string> {
  home: FoundHome;
  /** The home's files, read-only and hashed as any evidence; paths relative to the home. */
  source: SessionSource;
  /** This agent's sessions found in the home, by id (each copy of an id found). */
  sessions: ReadonlyMap<string, readonly FoundSession[]>;
  /** The audit's own clock (ms since the epoch): only a time after it is judged by it, as a time in the future. */
  now: number;
  /** The audit's cap on a database's size in bytes (`--max-db-bytes`); undefined: the reader's own default. */
  maxDbBytes?: number;
  /**
   * Stream the events of a session's authoritative log, each with its full text on demand; false when it has no
   * readable log.
   */
  events(session: FoundSession, onEvent: (e: SessionEvent, r: JsonlRecord, text: () => string) => void): boolean;
  /** What a session records about itself (its format's `identityOf`: cwd, times, sandbox profile), if readable. */
  identity?(session: FoundSession): SessionIdentity | undefined;
  emit(code: C, location: Location, message: string, opts?: { key?: string; severity?: Severity }): void;
  /** Say that the file knows a session whose log is gone (the `sessions` list shows it). */
  gone(g: GoneSession): void;
  /**
   * Every entry the agent's home checks can recall (their `recall`), of every session the home's files name, in
   * the files' order: the text these files keep of the user's sessions.
   */
  recalled(onEntry: (e: RecalledEntry) => void): void;
  /**
   * What `make` gives, made once per audit of the home and shared by every check and recall of that audit (a
   * database's facts read by a check's `run` and again by its `recall`): keyed by the check's own name for it.
   */
  memo<T>(key: string, make: () => T): T;
}

/** What a home's file still holds of a session whose log is gone, one entry at a time (a prompt, a title). */
export interface RecalledEntry {
  /**
   * The session the entry names; '' when it names none (an older history line), delivered only when `wanted('')`
   * accepts it (the secret scan does; a session's timeline never asks for '').
   */
  session: string;
  /** The home's file it comes from, relative to the home, and where in it. */
  file: string;
  line?: number;
  byteOffset?: number;
  /** For a database, which has no lines: the table and row the entry comes from (`threads` row <id>). */
  row?: string;
  timeMs?: number;
  /**
   * A prompt the user sent; a reply: the agent's answer to a prompt, as the file keeps it (Copilot CLI's store keeps
   * each turn's); a note: anything else the file records of it (a title, a command line).
   */
  kind: 'user_prompt' | 'reply' | 'note';
  text: string;
}

export interface HomeCheck<C extends string = string> {
  id: string;
  codes: Record<C, CodeInfo>;
  run(ctx: HomeCheckContext<C>): void;
  /**
   * What the check's files hold of the sessions `wanted` accepts, in the files' order (for `timeline` and
   * `transcript` of a session whose log is gone). Nothing is emitted: `emit` and `gone` do nothing here.
   */
  recall?(ctx: HomeCheckContext<C>, wanted: (id: string) => boolean, onEntry: (e: RecalledEntry) => void): void;
}

/**
 * What a home's files that name no session can show a reviewer (`inspect`, `lineage`), read through the same
 * context as the checks (nothing is emitted). Each returns its sections with items, none when there is nothing to
 * show; a file that cannot be read shows nothing here (its check says why).
 */
export interface HomeViews {
  /** What the home holds that is tied to this session of it (by its cwd group, its span of time). */
  session?(ctx: HomeCheckContext, session: FoundSession): HomeViewSection[];
  /** What the home holds that no session of it accounts for. */
  outsideSessions?(ctx: HomeCheckContext): HomeViewSection[];
}

export function defineHomeCheck<C extends string>(check: HomeCheck<C>): HomeCheck<C> {
  return check;
}
