/**
 * What each path inside a Grok Build session directory is (formats/grok-build.md §1.2), so that every
 * file is either understood or reported. Kinds with a schema are validated; the rest are inventoried.
 */
import type { Artifact, ArtifactRole } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';

interface Rule {
  re: RegExp;
  kind: string;
  role: ArtifactRole;
  note?: string;
}

const UUIDISH = '[0-9A-Za-z-]+';

/** First match wins; paths are relative to the session directory, '/'-separated. */
const RULES: Rule[] = [
  { re: /^summary\.json$/, kind: 'summary', role: 'json' },
  { re: /^updates\.jsonl$/, kind: 'updates', role: 'jsonl' },
  { re: /^chat_history\.jsonl$/, kind: 'chat', role: 'jsonl' },
  { re: /^rewind_points\.jsonl$/, kind: 'rewind', role: 'jsonl' },
  { re: /^feedback\.jsonl$/, kind: 'feedback', role: 'jsonl' },
  { re: /^btw_history\.jsonl$/, kind: 'btw', role: 'jsonl' },
  { re: /^events\.jsonl$/, kind: 'events', role: 'jsonl' },
  {
    re: /^(summary\.json|(updates|chat_history|rewind_points|feedback|btw_history)\.jsonl)\.lock$/,
    kind: 'lock',
    role: 'lock',
  },
  {
    re: /^chat_history\.jsonl\.corrupt$/,
    kind: 'chat-quarantine',
    role: 'quarantine',
    note: 'copy of the raw chat history taken the first time a load skipped a bad line or stripped an image',
  },
  {
    re: /^chat_history\.jsonl\.pre-strip$/,
    kind: 'chat-prestrip',
    role: 'quarantine',
    note: 'backup taken before a destructive image-strip rewrite',
  },
  { re: /^plan\.json$/, kind: 'plan', role: 'json' },
  { re: /^plan_mode\.json$/, kind: 'plan-mode', role: 'json' },
  { re: /^plan\.md$/, kind: 'plan-md', role: 'text' },
  { re: /^signals\.json$/, kind: 'signals', role: 'json' },
  { re: /^announcement_state\.json$/, kind: 'announcement', role: 'json' },
  { re: /^goal\/state\.json$/, kind: 'goal', role: 'json' },
  { re: /^goal\/[^/]+\.md$/, kind: 'goal-md', role: 'text' },
  { re: /^workflows\/[A-Za-z0-9_-]+\/state\.json$/, kind: 'workflow-state', role: 'json' },
  { re: /^workflows\/[^/]+\/args\.json$/, kind: 'workflow-args', role: 'json' },
  { re: /^workflows\/[^/]+\/scripts\/\d+\.rhai$/, kind: 'workflow-script', role: 'text' },
  { re: /^workflows\/[^/]+\/cleared$/, kind: 'workflow-cleared', role: 'text' },
  { re: /^workflows\/[^/]+\/journal\.jsonl$/, kind: 'workflow-journal', role: 'text' },
  { re: new RegExp(`^compaction_checkpoints/${UUIDISH}\\.json$`), kind: 'checkpoint', role: 'json' },
  { re: new RegExp(`^compaction_requests/${UUIDISH}\\.json$`), kind: 'compaction-request', role: 'json' },
  { re: new RegExp(`^recap_requests/${UUIDISH}\\.json$`), kind: 'recap-request', role: 'json' },
  { re: /^compaction\/segment_\d+\.md$/, kind: 'compaction-segment', role: 'text' },
  { re: /^compaction\/INDEX\.md$/, kind: 'compaction-index', role: 'text' },
  { re: /^subagents\/[^/]+\/meta\.json$/, kind: 'subagent-meta', role: 'json' },
  { re: /^subagents\/[^/]+\/output\.json$/, kind: 'subagent-output', role: 'json' },
  { re: /^tool_state\.json$/, kind: 'tool-state', role: 'json' },
  { re: /^system_prompt\.txt$/, kind: 'system-prompt', role: 'text' },
  { re: /^prompt_context\.json$/, kind: 'prompt-context', role: 'json' },
  { re: /^prompts\/prompt_\d+\.txt$/, kind: 'prompt-text', role: 'text' },
  { re: /^images\/image-[^/]+\.[A-Za-z0-9]+$/, kind: 'image', role: 'binary' },
  { re: /^(mermaid|assets)\/.+$/, kind: 'render-cache', role: 'binary' },
  { re: /^relay_sync\.json$/, kind: 'relay-sync', role: 'json' },
  { re: /^title_refresh_idx$/, kind: 'title-refresh-idx', role: 'text' },
  {
    re: /^\.disk_ok$/,
    kind: 'disk-probe',
    role: 'transient',
    note: 'writability probe that Grok writes and removes at once; left behind by a crash in between',
  },
  // Leftovers of crashed temp+rename writes (U1 and U2 temp names).
  {
    re: /^(summary|plan_mode|signals|announcement_state)\.json\.tmp$/,
    kind: 'temp',
    role: 'temp',
    note: 'U1 temp file of an atomic rewrite',
  },
  {
    re: /^(chat_history|rewind_points)\.jsonl\.tmp$/,
    kind: 'temp',
    role: 'temp',
    note: 'U1 temp file of a full-log rewrite',
  },
  {
    re: /^chat_history\.jsonl\.sync\.tmp$/,
    kind: 'temp',
    role: 'temp',
    note: 'temp file of the chat-history rewrite at spawn',
  },
  {
    re: /^chat_history\.jsonl\.pre-strip\.tmp$/,
    kind: 'temp',
    role: 'temp',
    note: 'temp file of the pre-strip backup',
  },
  { re: /^goal\/state\.json\.tmp$/, kind: 'temp', role: 'temp', note: 'U1 temp file of the goal state rewrite' },
  {
    re: /^workflows\/[^/]+\/state\.json\.\d+\.[0-9A-Za-z-]+\.tmp$/,
    kind: 'temp',
    role: 'temp',
    note: 'temp file of a workflow manifest write',
  },
  { re: /^images\/.+\.tmp$/, kind: 'temp', role: 'temp', note: 'temp file of a pasted-image write' },
  {
    re: /^subagents\/[^/]+\/\.tmp[^/]*$/,
    kind: 'temp',
    role: 'temp',
    note: 'temp file of a subagent meta/output write',
  },
  {
    re: /^(.+)\.[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7[0-9a-fA-F]{3}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\.tmp$/,
    kind: 'temp',
    role: 'temp',
    note: 'U2 temp file (<file>.<uuidv7>.tmp) of an atomic rewrite',
  },
  // Written by the third-party nonexphere fork, not by upstream Grok Build.
  {
    re: /^(provider_binding\.json|archived\.flag)$/,
    kind: 'fork-file',
    role: 'foreign',
    note: 'written by the nonexphere/grok-build fork, not by upstream Grok Build',
  },
];

/** Directories Grok creates inside a session. */
const DIRS = new RegExp(
  `^(${[
    'goal',
    'workflows',
    'workflows/[^/]+',
    'workflows/[^/]+/scripts',
    'compaction_checkpoints',
    'compaction_requests',
    'recap_requests',
    'compaction',
    'subagents',
    'subagents/[^/]+',
    'prompts',
    'images',
    'mermaid',
    'assets',
    '(mermaid|assets)/.+',
  ].join('|')})$`,
);

export function classifyPath(path: string, type: InventoryEntry['type']): Artifact {
  if (type === 'dir')
    return DIRS.test(path) ? { path, kind: 'dir', role: 'dir' } : { path, kind: 'dir', role: 'unexpected' };
  for (const r of RULES) {
    if (r.re.test(path)) {
      const a: Artifact = { path, kind: r.kind, role: r.role };
      if (r.note) a.note = r.note;
      return a;
    }
  }
  if (path.endsWith('.tmp')) return { path, kind: 'temp', role: 'temp', note: 'temp file of an interrupted write' };
  return { path, kind: 'unknown', role: 'unexpected' };
}

export function classify(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  return new Map(inventory.map((e) => [e.path, classifyPath(e.path, e.type)]));
}

/** Names whose presence makes a directory a Grok Build session (or a session candidate). */
const MARKERS = new Set([
  'summary.json',
  'updates.jsonl',
  'chat_history.jsonl',
  'rewind_points.jsonl',
  'chat_history.jsonl.corrupt',
]);

export const detect = (names: readonly string[]): 'session' | 'descend' =>
  names.some((n) => MARKERS.has(n)) ? 'session' : 'descend';
