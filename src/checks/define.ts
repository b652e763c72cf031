/** The shape of a check: a catalog of the codes it owns and a pure, synchronous run over the load events. */
import type { CodeInfo, Location, Severity } from '../model/finding.js';
import type { DamageEvent, DocEvent, FileEndEvent, RecordEvent, SessionInfo } from '../model/session.js';
import type { FormatModule } from '../formats/types.js';
import type { AuditExtras } from '../audit.js';
import type { ChatItem, SessionEvent } from '../model/events.js';

export interface EmitOptions {
  key?: string;
  severity?: Severity;
}

export interface CheckContext {
  session: SessionInfo;
  format: FormatModule;
  /** Evidence from outside the session directory, when the command was given some. */
  extras: AuditExtras;
  /**
   * Report a finding. `key` distinguishes findings that share code, file, line and pointer (e.g. a tool-call
   * id); it feeds the fingerprint, never the output. `severity` departs from the code's default when the
   * session's own evidence says so (a user's --severity override still wins).
   */
  emit(code: string, location: Location, message: string, opts?: EmitOptions): void;
}

export interface CheckRun {
  doc?(d: DocEvent): void;
  record?(r: RecordEvent): void;
  event?(e: SessionEvent): void;
  chat?(c: ChatItem): void;
  damage?(d: DamageEvent): void;
  fileEnd?(f: FileEndEvent): void;
  end?(): void;
}

export interface Check<C extends string = string> {
  id: string;
  /** Run by `validate` as well as `audit`. */
  validate: boolean;
  /** Formats whose artifacts the check reads (absent: every format). */
  formats?: readonly string[];
  codes: Record<C, CodeInfo>;
  create(ctx: CheckContext): CheckRun;
}

export function defineCheck<C extends string>(check: Check<C>): Check<C> {
  return check;
}
