/** The shape of a check: a catalog of the codes it owns and a pure, synchronous run over the load events. */
import type { CodeInfo, Location, Severity } from '../model/finding.js';
import type { AuditExtras, SessionInfo, SessionObserver } from '../model/session.js';
import type { AgentTraits } from '../formats/traits.js';

export interface EmitOptions {
  key?: string;
  severity?: Severity;
}

export interface CheckContext<C extends string = string> {
  session: SessionInfo;
  /** The agent whose session this is: its names, validators, dialects and rules. */
  agent: AgentTraits;
  /** Evidence from outside the session directory, when the command was given some. */
  extras: AuditExtras;
  /**
   * Report a finding of one of the check's own codes. `key` distinguishes findings that share code, file and
   * pointer (e.g. a tool-call id); it feeds the fingerprint, never the output, and never holds a position (a line,
   * an offset, a record's index: a line inserted above would make the finding new; findings on different lines are
   * told apart by their lines' bytes already). `severity` departs from the code's default when the session's own
   * evidence says so (a user's --severity override still wins).
   */
  emit(code: C, location: Location, message: string, opts?: EmitOptions): void;
}

/** What a check does with a session: it observes the load events (every hook optional). */
export type CheckRun = SessionObserver;

export interface Check<C extends string = string> {
  id: string;
  /** Run by `validate` as well as `audit`. */
  validate: boolean;
  codes: Record<C, CodeInfo>;
  create(ctx: CheckContext<C>): CheckRun;
}

export function defineCheck<C extends string>(check: Check<C>): Check<C> {
  return check;
}

/** The codes a check (or a list of checks) owns, as a union of string literals. */
export type CodesOf<T> = T extends { codes: Record<infer C, CodeInfo> } ? C : never;
