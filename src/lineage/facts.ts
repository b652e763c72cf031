/**
 * What lineage needs from each session, gathered while it is audited: identity and placement, the links it records
 * (kind, parent, fork time, sandbox profile), the sub-agents it ran, and the points where a new process resumed it.
 * All of it comes from the session's identity document (model/identity.ts), whatever the agent.
 */
import { dirname, isAbsolute, relative, sep } from 'node:path';
import type { Location } from '../model/finding.js';
import type { FoundSession } from '../model/found.js';
import { IDENTITY_KIND, type SessionIdentity } from '../model/identity.js';
import type { SessionObserver } from '../model/session.js';

export interface SubagentLink {
  id: string;
  /** Where the link is recorded: the parent's metadata file, or only a spawn line in its log. */
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
  /** The format of the session (its registry name). */
  format: string;
  group?: string;
  /** The sessions root the session lives in: lineage links and duplicate ids are judged within one root. */
  root: string;
  /** The root as the user's path names it (the session's display path less the segments below the root). */
  rootShown?: string;
  /** The agent's identity document of the session was readable (XREF and SANDBOX checks need it). */
  hasSummary: boolean;
  /** The id the session records, when it differs from the directory's or file's name. */
  summaryId?: string;
  cwd?: string;
  createdAt?: string;
  sessionKind?: string;
  parentSessionId?: string;
  forkedAt?: string;
  /**
   * The raw sandbox profile string, else the last access policy the log recorded (an agent that records one per
   * turn, as `inspect` shows it), or undefined when neither is recorded.
   */
  sandboxProfile?: string;
  hidden?: boolean;
  sourceWorkspaceDir?: string;
  subagents: SubagentLink[];
  /** Lines where a new process picked the session up (from the time analysis). */
  resumes: number[];
  /** Where the parent link is recorded, and in words. */
  linkAt?: Location;
  linkEvidence?: string;
  /** Where the session kind is recorded. */
  kindAt?: Location;
  /** A sub-agent that names its parent itself (nothing in the parent lists it). */
  selfLinked?: boolean;
}

/**
 * The root as displayed: the session's display path is the user's argument joined with the names below it, so
 * the root is that path less as many segments as lie between the root and the session (one more for a file
 * session, shown by its file). Undefined when the session is not below its root.
 */
function shownRoot(found: FoundSession, root: string): string | undefined {
  const rel = relative(root, found.abs);
  if (rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const below = (rel === '' ? 0 : rel.split(sep).length) + (found.members !== undefined ? 1 : 0);
  const parts = found.display.split('/');
  if (below === 0) return found.display;
  if (parts.length < below) return undefined;
  if (parts.length === below) return '.';
  return parts.slice(0, -below).join('/') || '/';
}

export function lineageObserver(found: FoundSession): { run: SessionObserver; facts: LineageFacts } {
  const root = found.rootAbs ?? (found.groupAbs ? dirname(found.groupAbs) : dirname(found.abs));
  const facts: LineageFacts = {
    id: found.id,
    path: found.display,
    abs: found.abs,
    format: found.format ?? '',
    root,
    hasSummary: false,
    subagents: [],
    resumes: [],
  };
  if (found.groupName !== undefined) facts.group = found.groupName;
  const shown = shownRoot(found, root);
  if (shown !== undefined) facts.rootShown = shown;
  /** The last access policy the log set (not one call beyond it), for a session whose identity records none. */
  let lastPolicy: string | undefined;
  const run: SessionObserver = {
    event(e) {
      if (e.policy && !e.policy.oneCall) lastPolicy = e.policy.label;
    },
    doc({ kind, value }) {
      if (kind !== IDENTITY_KIND || typeof value !== 'object' || value === null) return;
      const s = value as SessionIdentity;
      if (s.documented) facts.hasSummary = true;
      if (s.id !== undefined && s.id !== found.id) facts.summaryId = s.id;
      if (s.cwd !== undefined) facts.cwd = s.cwd;
      if (s.createdAt !== undefined) facts.createdAt = s.createdAt;
      if (s.kind !== undefined) facts.sessionKind = s.kind;
      if (s.parentId !== undefined) facts.parentSessionId = s.parentId;
      if (s.forkedAt !== undefined) facts.forkedAt = s.forkedAt;
      if (s.sandboxProfile !== undefined) facts.sandboxProfile = s.sandboxProfile;
      else if (lastPolicy !== undefined) facts.sandboxProfile = lastPolicy;
      if (s.hidden !== undefined) facts.hidden = s.hidden;
      if (s.sourceWorkspaceDir !== undefined) facts.sourceWorkspaceDir = s.sourceWorkspaceDir;
      if (s.linkAt !== undefined) facts.linkAt = s.linkAt;
      if (s.linkEvidence !== undefined) facts.linkEvidence = s.linkEvidence;
      if (s.kindAt !== undefined) facts.kindAt = s.kindAt;
      if (s.selfLinked) facts.selfLinked = true;
      const links = new Map(facts.subagents.map((l) => [l.id, l]));
      for (const a of s.subagents) {
        if (links.has(a.id)) continue;
        const link: SubagentLink = { id: a.id, file: a.file };
        if (a.line !== undefined) link.line = a.line;
        if (a.status !== undefined) link.status = a.status;
        if (a.type !== undefined) link.type = a.type;
        if (a.resumedFrom !== undefined) link.resumedFrom = a.resumedFrom;
        links.set(a.id, link);
      }
      facts.subagents = [...links.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
  };
  return { run, facts };
}
