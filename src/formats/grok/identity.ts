/**
 * What a Grok session records about itself, as the generic SessionIdentity: summary.json (identity, kind, parent,
 * sandbox profile, model), the subagents/<id>/meta.json of the subagents it ran, and the subagent_spawned lines of
 * updates.jsonl for subagents without a meta.
 */
import type { SessionIdentity, SubagentRecord } from '../../model/identity.js';
import type { SessionEvent } from '../../model/events.js';
import type { SessionSource } from '../../model/source.js';
import { tooDeep } from '../../read/json-depth.js';
import { summaryView } from './summary-view.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The identity summary.json gives (documented: it parsed to an object); undefined for anything else. */
export function identityFromSummary(value: unknown): SessionIdentity | undefined {
  const s = summaryView(value);
  if (!s || !isObj(value)) return undefined;
  const id: SessionIdentity = { documented: true, subagents: [] };
  if (s.id !== undefined) id.id = s.id;
  if (s.cwd !== undefined) id.cwd = s.cwd;
  if (s.createdAt !== undefined) id.createdAt = s.createdAt;
  if (s.updatedAt !== undefined) id.updatedAt = s.updatedAt;
  if (s.sessionKind !== undefined) {
    id.kind = s.sessionKind;
    id.kindAt = { file: 'summary.json', pointer: '/session_kind' };
  }
  if (s.parentSessionId !== undefined) {
    id.parentId = s.parentSessionId;
    id.linkAt = { file: 'summary.json', pointer: '/parent_session_id' };
    id.linkEvidence =
      s.sessionKind === undefined
        ? 'summary.json parent_session_id without a session_kind (a session restored from a remote one)'
        : `summary.json parent_session_id (session_kind ${s.sessionKind})`;
  }
  if (s.forkedAt !== undefined) id.forkedAt = s.forkedAt;
  if (s.sandboxProfile !== undefined) id.sandboxProfile = s.sandboxProfile;
  if (s.hidden !== undefined) id.hidden = s.hidden;
  const src = str(value.source_workspace_dir);
  if (src !== undefined) id.sourceWorkspaceDir = src;
  const model = str(value.current_model_id);
  if (model !== undefined) id.model = model;
  return id;
}

/** Collects the identity while a Grok session loads: the summary, then subagent metas, then spawn lines. */
export class GrokIdentity {
  private identity: SessionIdentity | undefined;
  private readonly links = new Map<string, SubagentRecord>();

  summary(value: unknown): void {
    this.identity = identityFromSummary(value);
  }

  meta(file: string, meta: unknown): void {
    if (typeof meta !== 'object' || meta === null) return;
    const value = meta as Obj;
    const id = str(value.child_session_id) ?? file.split('/')[1]!;
    const link: SubagentRecord = { id, file };
    const status = str(value.status);
    if (status !== undefined) link.status = status;
    const type = str(value.subagent_type);
    if (type !== undefined) link.type = type;
    const resumed = str(value.resumed_from);
    if (resumed !== undefined) link.resumedFrom = resumed;
    const description = str(value.description);
    if (description !== undefined) link.description = description;
    const started = str(value.started_at);
    if (started !== undefined) link.startedAt = started;
    this.links.set(id, link);
  }

  event(e: SessionEvent): void {
    if (e.kind !== 'subagent_spawned' || e.childSessionId === undefined || this.links.has(e.childSessionId)) return;
    this.links.set(e.childSessionId, { id: e.childSessionId, file: e.file, line: e.line });
  }

  result(): SessionIdentity {
    const id: SessionIdentity = this.identity ?? { documented: false, subagents: [] };
    id.subagents = [...this.links.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return id;
  }
}

/** The identity summary.json gives, read alone (undefined when it cannot be read or parsed). */
export function grokIdentityOf(source: SessionSource): SessionIdentity | undefined {
  const r = source.readFile('summary.json', 16 * 1024 * 1024);
  if (!r.ok || tooDeep(r.value.bytes)) return undefined;
  try {
    return identityFromSummary(JSON.parse(r.value.bytes.toString('utf8')));
  } catch {
    return undefined;
  }
}
