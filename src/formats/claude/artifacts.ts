/**
 * What a Claude Code session is on disk (formats/codex-claude.md §2.1): `<project>/<session>.jsonl` and its folder
 * `<project>/<session>/` — `subagents/agent-<id>.jsonl` (sidechain transcripts), `agent-<id>.meta.json`,
 * `tool-results/` (large outputs moved out of line), `workflows/`. A folder whose transcript is gone is still the
 * session (its sub-agents' evidence).
 */
import { basename } from 'node:path';
import type { Artifact, ArtifactRole } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';
import type { DirProbe, FileSessionHit } from '../../model/found.js';
import type { FileDetection } from '../types.js';

export const RECORD_TYPES = [
  'user',
  'assistant',
  'system',
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'pr-link',
  'agent-name',
  'custom-title',
  'last-prompt',
  'attachment',
  'permission-mode',
  'ai-title',
  'agent-setting',
  'bridge-session',
  'worktree-state',
  'mode',
  'cost-state',
  'file-history-delta',
  'turn_end',
];
const TYPES = new Set(RECORD_TYPES);
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Key orders Claude Code writes (a first line too long for the head is recognised by its start). */
const PREFIXES = [
  /^\{"parentUuid":(null|"[^"]*"),"isSidechain":(true|false),/,
  new RegExp(
    `^\\{"type":"(${[
      'summary',
      'file-history-snapshot',
      'queue-operation',
      'permission-mode',
      'custom-title',
      'ai-title',
      'agent-name',
      'last-prompt',
    ].join('|')})",`,
  ),
];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A parsed line that is unmistakably a Claude Code record. */
export const isTranscriptRecord = (v: unknown): boolean =>
  isObj(v) &&
  typeof v.type === 'string' &&
  TYPES.has(v.type) &&
  (typeof v.sessionId === 'string' ||
    typeof v.uuid === 'string' ||
    typeof v.leafUuid === 'string' ||
    typeof v.messageId === 'string');

export function sniffClaude(lines: readonly string[], partial: string | undefined): boolean {
  for (const l of lines) {
    try {
      if (isTranscriptRecord(JSON.parse(l))) return true;
    } catch {
      /* a damaged line: look at the next */
    }
  }
  return partial !== undefined && PREFIXES.some((re) => re.test(partial));
}

export function detectClaudeFiles(probe: DirProbe, ctx: FileDetection): FileSessionHit[] {
  const hits: FileSessionHit[] = [];
  for (const name of probe.names) {
    if (name.startsWith('.') || !name.endsWith('.jsonl')) continue;
    const stem = name.slice(0, -'.jsonl'.length);
    const type = probe.type(name);
    if (type === 'symlink') {
      if (UUID.test(stem)) hits.push({ format: 'claude', id: stem, main: name, members: [name], symlinkTarget: '' });
      continue;
    }
    if (type !== 'file') continue;
    if (ctx.sniff(name) !== 'claude' && !(ctx.hinted && UUID.test(stem))) continue;
    const members = [name];
    if (probe.names.includes(stem) && probe.type(stem) === 'dir') members.push(stem);
    hits.push({ format: 'claude', id: stem, main: name, members });
  }
  return hits;
}

/**
 * `<session>/` holding `subagents/*.jsonl`, or (named by its session's UUID) `tool-results/` with the large tool
 * outputs Claude Code moved out of the transcript, with no `<session>.jsonl` next to it (discovery only visits
 * unclaimed folders).
 */
export function detectClaudeOrphan(probe: DirProbe): FileSessionHit | undefined {
  const has = (dir: string, wanted: (n: string) => boolean): boolean =>
    probe.names.includes(dir) && probe.type(dir) === 'dir' && probe.list(dir).some(wanted);
  const subagents = has('subagents', (n) => n.endsWith('.jsonl'));
  const outputs = UUID.test(basename(probe.abs)) && has('tool-results', (n) => !n.startsWith('.'));
  if (!subagents && !outputs) return undefined;
  return { format: 'claude', id: basename(probe.abs), main: '.', members: ['.'] };
}

interface Rule {
  re: RegExp;
  kind: string;
  role: ArtifactRole;
  note?: string;
}

const RULES: Rule[] = [
  { re: /^[^/]+\.jsonl$/, kind: 'transcript', role: 'jsonl' },
  { re: /^[^/]+\/subagents\/[^/]+\.jsonl$/, kind: 'subagent', role: 'jsonl' },
  { re: /^[^/]+\/subagents\/[^/]+\.meta\.json$/, kind: 'subagent-meta', role: 'json' },
  {
    re: /^[^/]+\/tool-results\/.+$/,
    kind: 'tool-result',
    role: 'text',
    note: 'a large tool output Claude Code moved out of the transcript',
  },
  { re: /^[^/]+\/workflows\/.+$/, kind: 'workflow', role: 'text' },
];
const DIRS = /^[^/]+(\/(subagents|tool-results|workflows)(\/.+)?)?$/;

export function classifyClaude(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  for (const e of inventory) {
    const p = e.path;
    if (e.type === 'dir') {
      out.set(p, { path: p, kind: 'dir', role: DIRS.test(p) ? 'dir' : 'unexpected' });
      continue;
    }
    const r = RULES.find((x) => x.re.test(p));
    const a: Artifact = r ? { path: p, kind: r.kind, role: r.role } : { path: p, kind: 'unknown', role: 'unexpected' };
    if (r?.note) a.note = r.note;
    out.set(p, a);
  }
  return out;
}
