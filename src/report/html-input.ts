/**
 * What the HTML report is rendered from: the audit report plus, per session, its timeline and tool-call pairs, the
 * bytes of the line each finding points at, and the lineage views.
 */
import type { LineageView } from '../lineage/view.js';
import type { FailOn } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import type { PairRow } from '../pairing/pairing-result.js';
import type { TimelineEvent } from '../timeline/model.js';

export interface HtmlSession {
  /** Session id (directory name). */
  id: string;
  /**
   * The session directory as given on the command line (matches `report.sessions[].path` and `findings[].sessionPath`).
   */
  path: string;
  format: string;
  /**
   * The authoritative timeline, when the session has a readable log. Capped by the caller (see `timelineTruncated`).
   */
  timeline?: TimelineEvent[];
  /** Events left out because the timeline was longer than the cap. */
  timelineTruncated?: number;
  /** The page's room for events was used by worse sessions: this timeline is not embedded. */
  timelineOmitted?: boolean;
  /** One row per tool call. */
  pairs?: PairRow[];
  /**
   * The timeline and the tool calls read only when the page has room for them (the engine reads a session again
   * for them): the worst sessions first, until the page's budget is spent.
   */
  load?: () => SessionExtras;
}

/** What the page embeds of a session beside its files. */
export type SessionExtras = Pick<HtmlSession, 'timeline' | 'timelineTruncated' | 'timelineOmitted' | 'pairs'>;

/** The bytes a finding points at (its line, or its byte range), as read back for the page. */
export interface FindingBytes {
  /** The first bytes (at most what the page embeds). */
  bytes: Uint8Array;
  /** The full length when known (a byte range, or a line whose end was read); undefined: longer than `bytes`. */
  length?: number;
}

export interface HtmlInput {
  report: AuditReport;
  sessions: HtmlSession[];
  /** One view per sessions root (empty when there is no lineage, e.g. a single session). */
  lineage: LineageView[];
  /** Shown in the page title and heading, e.g. the paths audited. Untrusted: escape it. */
  title: string;
  /** The gate the run used (the verdict says whether it passed). */
  failOn?: FailOn;
  /** Per finding (same index as `report.findings`): the bytes it points at, when it points at bytes. */
  lines?: ReadonlyArray<FindingBytes | undefined>;
  /** --notes: every finding a row of its own (else notes are summed up by code, as in the table). */
  notes?: boolean;
}
