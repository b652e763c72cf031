/**
 * What lineage needs from each session, gathered while it is audited: identity and placement, the summary
 * fields that link sessions (kind, parent, fork time, sandbox profile), the subagents it spawned, and the
 * points where a new process resumed it.
 */
import type { CheckRun } from '../checks/define.js';
import { summaryView } from '../formats/grok/summary-view.js';
import { dirname } from 'node:path';
import type { FoundSession } from '../read/discover.js';
import type { Location } from '../model/finding.js';
import { IDENTITY_KIND, type SessionIdentity } from '../model/identity.js';

export interface SubagentLink {
  id: string;
  /** Where the link is recorded: the parent's meta.json, or only a spawn line in its log. */
  file: string;
  line?: number;
  status?: string;
  type?: string;
  resumedFrom?: string;
}

export interface LineageFacts {
  id: string;
  path: string;
  abs: string;
  group?: string;
  /** The sessions root the session lives in: lineage links and duplicate ids are judged within one root. */
  root: string;
  hasSummary: boolean;
  /** summary.info.id, when it differs from the directory name (XREF_ID_MISMATCH tells). */
  summaryId?: string;
  cwd?: string;
  createdAt?: string;
  sessionKind?: string;
  parentSessionId?: string;
  forkedAt?: string;
  /** The raw `sandbox_profile` string, or undefined when none is recorded. */
  sandboxProfile?: string;
  hidden?: boolean;
  sourceWorkspaceDir?: string;
  subagents: SubagentLink[];
  /** Lines where a new process picked the session up (from the time analysis). */
  resumes: number[];
  /** Where the parent link is recorded, when not in summary.json (a Codex rollout's session_meta), and in words. */
  linkAt?: Location;
  linkEvidence?: string;
}

export function lineageObserver(found: FoundSession): { run: CheckRun; facts: LineageFacts } {
  const root = found.rootAbs ?? (found.groupAbs ? dirname(found.groupAbs) : dirname(found.abs));
  const facts: LineageFacts = { id: found.id, path: found.display, abs: found.abs, root, hasSummary: false, subagents: [], resumes: [] };
  if (found.groupName !== undefined) facts.group = found.groupName;
  const links = new Map<string, SubagentLink>();
  const run: CheckRun = {
    doc({ file, kind, value }) {
      if (kind === 'summary') {
        const s = summaryView(value);
        if (!s) return;
        facts.hasSummary = true;
        if (s.id !== undefined && s.id !== found.id) facts.summaryId = s.id;
        if (s.cwd !== undefined) facts.cwd = s.cwd;
        if (s.createdAt !== undefined) facts.createdAt = s.createdAt;
        if (s.sessionKind !== undefined) facts.sessionKind = s.sessionKind;
        if (s.parentSessionId !== undefined) facts.parentSessionId = s.parentSessionId;
        if (s.forkedAt !== undefined) facts.forkedAt = s.forkedAt;
        if (s.sandboxProfile !== undefined) facts.sandboxProfile = s.sandboxProfile;
        if (s.hidden !== undefined) facts.hidden = s.hidden;
        const src = (value as { source_workspace_dir?: unknown }).source_workspace_dir;
        if (typeof src === 'string') facts.sourceWorkspaceDir = src;
      }
      if (kind === IDENTITY_KIND && typeof value === 'object' && value !== null) {
        // Codex / Claude Code: what the session's own records say (no summary.json, so hasSummary stays false).
        const s = value as SessionIdentity;
        if (s.id !== undefined && s.id !== found.id) facts.summaryId = s.id;
        if (s.cwd !== undefined) facts.cwd = s.cwd;
        if (s.createdAt !== undefined) facts.createdAt = s.createdAt;
        if (s.kind !== undefined) facts.sessionKind = s.kind;
        if (s.parentId !== undefined) facts.parentSessionId = s.parentId;
        if (s.linkAt !== undefined) facts.linkAt = s.linkAt;
        if (s.linkEvidence !== undefined) facts.linkEvidence = s.linkEvidence;
        for (const a of s.subagents) if (!links.has(a.id)) links.set(a.id, { id: a.id, file: a.file, ...(a.line !== undefined ? { line: a.line } : {}), ...(a.type !== undefined ? { type: a.type } : {}) });
      }
      if (kind === 'subagent-meta' && typeof value === 'object' && value !== null) {
        const v = value as Record<string, unknown>;
        const id = typeof v.child_session_id === 'string' ? v.child_session_id : file.split('/')[1]!;
        const link: SubagentLink = { id, file };
        if (typeof v.status === 'string') link.status = v.status;
        if (typeof v.subagent_type === 'string') link.type = v.subagent_type;
        if (typeof v.resumed_from === 'string') link.resumedFrom = v.resumed_from;
        links.set(id, link);
      }
    },
    event(e) {
      if (e.file === 'updates.jsonl' && e.kind === 'subagent_spawned' && e.childSessionId !== undefined && !links.has(e.childSessionId)) {
        links.set(e.childSessionId, { id: e.childSessionId, file: e.file, line: e.line });
      }
    },
    end() {
      facts.subagents = [...links.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
  };
  return { run, facts };
}
