/**
 * What the HTML report is rendered from: the audit report plus, per session, its timeline and tool-call pairs, and the
 * lineage views.
 */
import type { LineageView } from '../lineage/view.js';
import type { AuditReport } from '../model/report.js';
import type { PairRow } from '../pairing/classify.js';
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
  /** One row per tool call. */
  pairs?: PairRow[];
}

export interface HtmlInput {
  report: AuditReport;
  sessions: HtmlSession[];
  /** One view per sessions root (empty when there is no lineage, e.g. a single session). */
  lineage: LineageView[];
  /** Shown in the page title and heading, e.g. the paths audited. Untrusted: escape it. */
  title: string;
}
