/**
 * Grok Build records → the normalized model: one SessionEvent per updates.jsonl record, one ChatItem per
 * chat_history.jsonl record. Tolerant: a record of the wrong shape still becomes an event (kind `unknown`).
 */
import type { JsonlRecord } from '../../model/records.js';
import { showJson, validTimeMs } from '../../model/safe-values.js';
import type { ChatItem, ChatItemType, EventKind, Rail, SessionEvent, TurnStep } from '../../model/events.js';
import { XAI_METHOD } from './models/updates.js';
import { blankEvent } from '../shared/events.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const clip = (s: string, n = 120): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const XAI_KINDS: Record<string, EventKind> = {
  turn_completed: 'turn_completed',
  auto_compact_started: 'compaction_started',
  compaction_checkpoint: 'compaction_checkpoint',
  auto_compact_completed: 'compaction_completed',
  auto_compact_failed: 'compaction_failed',
  auto_compact_cancelled: 'compaction_failed',
  auto_continue_completed: 'notice',
  rewind_marker: 'rewind_marker',
  subagent_spawned: 'subagent_spawned',
  subagent_progress: 'subagent_progress',
  subagent_finished: 'subagent_finished',
  model_changed: 'model_change',
  model_auto_switched: 'model_change',
  retry_state: 'retry',
  auto_recovery_started: 'retry',
  auto_recovery_exhausted: 'retry',
  hook_annotation: 'hook',
  hook_execution: 'hook',
  hooks_changed: 'hook',
  task_completed: 'task',
  task_backgrounded: 'task',
  scheduled_task_created: 'task',
  scheduled_task_fired: 'task',
  scheduled_task_deleted: 'task',
  monitor_event: 'task',
  memory_flush_started: 'memory',
  memory_flush_completed: 'memory',
  memory_dream_completed: 'memory',
  memory_session_saved: 'memory',
  memory_files: 'memory',
  response_started: 'response',
  reasoning_completed: 'response',
  response_completed: 'response',
  diff_review: 'notice',
  feedback_request: 'notice',
  relay_sync_status: 'notice',
  plugins_changed: 'notice',
  plugin_updates_installed: 'notice',
  session_status: 'notice',
  session_summary_generated: 'notice',
  session_recap: 'notice',
  session_recap_unavailable: 'notice',
  last_turn_summary: 'notice',
  tool_call_delta_chunk: 'notice',
  image_compressed: 'notice',
  image_dropped: 'notice',
  workflow_updated: 'notice',
  goal_updated: 'notice',
  pending_interaction: 'notice',
  interaction_resolved: 'notice',
};

const ACP_KINDS: Record<string, EventKind> = {
  user_message_chunk: 'user_prompt',
  agent_message_chunk: 'model_text',
  agent_thought_chunk: 'thought',
  tool_call: 'tool_call',
  tool_call_update: 'tool_update',
  plan: 'plan',
  available_commands_update: 'session_update',
  current_mode_update: 'session_update',
  config_option_update: 'session_update',
  session_info_update: 'session_update',
  usage_update: 'session_update',
};

function contentText(c: unknown): string {
  if (!isObj(c)) return '';
  if (c.type === 'text') return str(c.text) ?? '';
  if (c.type === 'image') return '[image]';
  if (c.type === 'resource_link') return `[link ${str(c.uri) ?? ''}]`;
  return `[${str(c.type) ?? 'content'}]`;
}

/** The prefix of the last id split: consecutive ids share it, and one string object keeps lookups by it cheap. */
let lastPrefix = '';
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** Parse `"<session-id>-<counter>"` (what `/^(.*)-(\d+)$/` accepts, without a regex per event). */
export function splitEventId(id: string): { prefix: string; counter: number } | undefined {
  const dash = id.lastIndexOf('-');
  if (dash < 0 || dash === id.length - 1) return undefined;
  for (let i = dash + 1; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  let prefix: string;
  if (dash === lastPrefix.length && id.startsWith(lastPrefix)) prefix = lastPrefix;
  else {
    prefix = id.slice(0, dash);
    if (LINE_BREAK.test(prefix)) return undefined;
    lastPrefix = prefix;
  }
  const counter = Number(id.slice(dash + 1));
  return Number.isSafeInteger(counter) ? { prefix, counter } : undefined;
}

const isUint = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Grok's `rewind_step_for_line` (storage/mod.rs): serde peeks with exact types; any mismatch makes the line
 * `other`. Only `_x.ai/session/update` lines can rewind; only non-host ACP user chunks can count as turns.
 */
export function turnStep(v: unknown): TurnStep {
  if (!isObj(v)) return OTHER;
  let raw: unknown = v;
  let xai = false;
  const envelopeOk = (v.method === undefined || v.method === null || typeof v.method === 'string') && 'params' in v;
  if (envelopeOk) {
    raw = v.params;
    xai = v.method === XAI_METHOD;
  }
  if (!isObj(raw)) return OTHER;
  const u = raw.update;
  if (!isObj(u) || typeof u.sessionUpdate !== 'string') return OTHER;
  if (u.status !== undefined && u.status !== null && typeof u.status !== 'string') return OTHER;
  const t = u.target_prompt_index;
  if (t !== undefined && t !== null && !isUint(t)) return OTHER;
  let pi: number | null = null;
  let host = false;
  const m = u._meta;
  if (m !== undefined && m !== null) {
    if (!isObj(m)) return OTHER;
    if (m.promptIndex !== undefined && m.promptIndex !== null) {
      if (!isUint(m.promptIndex)) return OTHER;
      pi = m.promptIndex;
    }
    if (m.hostTurn !== undefined && m.hostTurn !== null) {
      if (typeof m.hostTurn !== 'boolean') return OTHER;
      host = m.hostTurn;
    }
  }
  if (xai && u.sessionUpdate === 'rewind_marker' && isUint(t)) return { k: 'rewind', target: t };
  if (!xai && !host && u.sessionUpdate === 'user_message_chunk') return { k: 'user', pi };
  return OTHER;
}

/** The shared blank event (one hidden class for every format's events), with Grok's replay step. */
function grokEvent(file: string, r: JsonlRecord): SessionEvent {
  const e = blankEvent(file, r, 'acp', -1);
  // A record recovered from a damaged line is invisible to Grok's replay: it counts as an unparseable line.
  e.step = r.recovered ? OTHER : turnStep(r.value);
  return e;
}

const OTHER: TurnStep = { k: 'other' };

export function normalizeUpdate(file: string, r: JsonlRecord): SessionEvent {
  const base = grokEvent(file, r);
  const v = r.value;
  if (!isObj(v)) {
    base.summary = 'not an object';
    return base;
  }
  let params: unknown;
  let rail: Rail;
  if ('params' in v || 'method' in v) {
    params = v.params;
    rail = v.method === XAI_METHOD ? 'xai' : 'acp';
    const ts = validTimeMs(num(v.timestamp) === undefined ? undefined : num(v.timestamp)! * 1000);
    if (ts !== undefined) {
      base.timeMs = ts;
      base.timeSource = 'envelope';
    }
  } else {
    params = v;
    rail = 'legacy';
  }
  base.rail = rail;
  if (!isObj(params)) {
    base.summary = 'no params';
    return base;
  }
  base.sessionId = str(params.sessionId);
  const meta = params._meta;
  if (isObj(meta)) {
    const ms = validTimeMs(num(meta.agentTimestampMs));
    if (ms !== undefined) {
      base.timeMs = ms;
      base.timeSource = 'agentTimestampMs';
    }
    const id = str(meta.eventId);
    if (id !== undefined) {
      base.eventId = id;
      const parts = splitEventId(id);
      if (parts) {
        base.counter = parts.counter;
        base.eventPrefix = parts.prefix;
      }
    }
    const pid = str(meta.promptId);
    if (pid !== undefined) base.promptId = pid;
    if (meta.isReplay === true) base.isReplay = true;
  }
  const u = params.update;
  if (!isObj(u)) {
    base.summary = 'no update';
    return base;
  }
  const tag = str(u.sessionUpdate) ?? '';
  base.tag = tag;
  const kind = rail === 'xai' ? XAI_KINDS[tag] : ACP_KINDS[tag];
  if (!kind) {
    base.summary = `unknown ${rail === 'xai' ? 'xAI' : 'ACP'} update ${JSON.stringify(tag)}`;
    return base;
  }
  const e = base;
  e.kind = kind;
  switch (tag) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const um = u._meta;
      if (isObj(um)) {
        const pi = num(um.promptIndex);
        if (pi !== undefined) e.promptIndex = pi;
        if (um.hostTurn === true) e.hostTurn = true;
      }
      e.summary = clip(contentText(u.content));
      break;
    }
    case 'tool_call':
    case 'tool_call_update':
      e.toolCallId = str(u.toolCallId);
      e.toolStatus = str(u.status) ?? (tag === 'tool_call' ? 'pending' : undefined);
      e.toolTitle = str(u.title);
      e.toolKind = str(u.kind) ?? (tag === 'tool_call' ? 'other' : undefined);
      e.summary = clip([e.toolTitle ?? e.toolCallId ?? '', e.toolStatus].filter(Boolean).join(' — '));
      break;
    case 'plan':
      e.summary = `plan: ${Array.isArray(u.entries) ? u.entries.length : 0} entries`;
      break;
    case 'turn_completed':
      e.promptId = str(u.prompt_id) ?? e.promptId;
      e.stopReason = str(u.stop_reason);
      e.summary = `turn completed: ${e.stopReason ?? '?'}`;
      break;
    case 'rewind_marker':
      e.targetPromptIndex = num(u.target_prompt_index);
      e.summary = `rewind to prompt ${e.targetPromptIndex ?? '?'}`;
      break;
    case 'compaction_checkpoint':
      e.checkpointId = str(u.checkpoint_id);
      e.checkpointFile = str(u.checkpoint_file);
      e.promptIndex = num(u.prompt_index_at_compaction);
      e.summary = `compaction checkpoint ${e.checkpointId ?? '?'} at prompt ${e.promptIndex ?? '?'}`;
      break;
    case 'subagent_spawned':
    case 'subagent_progress':
    case 'subagent_finished':
      e.subagentId = str(u.subagent_id);
      e.childSessionId = str(u.child_session_id);
      e.summary = clip(
        tag === 'subagent_spawned'
          ? `subagent ${str(u.subagent_type) ?? ''} spawned: ${str(u.description) ?? ''}`
          : tag === 'subagent_finished'
            ? `subagent finished: ${str(u.status) ?? '?'}`
            : 'subagent progress',
      );
      if (tag === 'subagent_finished') e.toolStatus = str(u.status);
      break;
    case 'model_changed':
      e.summary = `model changed to ${str(u.model_id) ?? '?'}`;
      break;
    case 'model_auto_switched':
      e.summary = `model switched ${str(u.previous_model_id) ?? '?'} → ${str(u.new_model_id) ?? '?'}`;
      break;
    default:
      e.summary = tag.replace(/_/g, ' ');
  }
  return e;
}

const CHAT_TYPES = new Set<ChatItemType>([
  'system',
  'user',
  'assistant',
  'tool_result',
  'backend_tool_call',
  'reasoning',
]);
const LEGACY_ROLES: Record<string, ChatItemType> = {
  system: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool_result',
};

function partsText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .map((p) => (isObj(p) ? (str(p.text) ?? (p.type === 'image' || p.type === 'image_url' ? '[image]' : '')) : ''))
    .join(' ');
}

/** Synthetic results that Grok's repair inserts for calls that never ran (conversation.rs:2191-2202). */
export const SYNTHETIC_RESULT_PATTERNS = [
  /^Tool execution was cancelled by the user \(tool `[^`]*` was not executed\)\.$/,
  /^Tool execution was halted by the harness \([^)]*\); the tool `[^`]*` was not executed\.$/,
];

export function normalizeChat(file: string, r: JsonlRecord): ChatItem {
  const item = chatItem(file, r);
  if (
    item.type === 'tool_result' &&
    item.text !== undefined &&
    SYNTHETIC_RESULT_PATTERNS.some((re) => re.test(item.text!))
  ) {
    item.synthetic = true;
  }
  return item;
}

function chatItem(file: string, r: JsonlRecord): ChatItem {
  const v = r.value;
  const item: ChatItem = { file, line: r.line, byteOffset: r.byteOffset, type: 'unknown' };
  if (r.recovered !== undefined) item.recovered = r.recovered;
  if (!isObj(v)) return item;
  if (typeof v.type === 'string') {
    item.type = CHAT_TYPES.has(v.type as ChatItemType) ? (v.type as ChatItemType) : 'unknown';
    item.promptIndex = num(v.prompt_index);
    item.syntheticReason = str(v.synthetic_reason);
    item.priorTurnInterrupt = str(v.prior_turn_interrupt);
    if (item.type === 'assistant') {
      item.hasModelId = typeof v.model_id === 'string';
      if (Array.isArray(v.tool_calls)) {
        item.toolCalls = v.tool_calls.filter(isObj).map((c) => ({
          id: str(c.id) ?? '',
          name: str(c.name) ?? '',
          args: clip(str(c.arguments) ?? '', 200),
          input: c.arguments,
        }));
      }
    }
    if (item.type === 'tool_result') item.toolCallId = str(v.tool_call_id);
    item.text = clip(
      item.type === 'tool_result' || item.type === 'assistant' || item.type === 'system'
        ? (str(v.content) ?? '')
        : partsText(v.content),
      300,
    );
    if (item.type === 'backend_tool_call' && isObj(v.kind))
      item.text = `${str(v.kind.tool_type) ?? 'backend tool'} ${str(v.kind.id) ?? ''}`;
    if (item.type === 'reasoning' && Array.isArray(v.summary)) item.text = clip(partsText(v.summary));
    return item;
  }
  const role = str(v.role);
  if (role && LEGACY_ROLES[role]) {
    item.legacy = true;
    item.type = LEGACY_ROLES[role]!;
    if (item.type === 'assistant') {
      item.hasModelId = typeof v.model_id === 'string';
      if (Array.isArray(v.tool_calls)) {
        item.toolCalls = v.tool_calls.filter(isObj).map((c) => {
          const fn = isObj(c.function) ? c.function : {};
          return {
            id: str(c.id) ?? '',
            name: str(fn.name) ?? '',
            args: clip(str(fn.arguments) ?? '', 200),
            input: fn.arguments,
          };
        });
      }
    }
    if (item.type === 'tool_result') item.toolCallId = str(v.tool_call_id) ?? '';
    item.text = clip(partsText(v.content), 300);
  }
  return item;
}

/** The full text an event carries, never truncated: prompt and message text, tool output, the rest as JSON. */
export function eventText(e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  const params = isObj(v) ? (isObj(v.params) ? v.params : v) : undefined;
  const u = params && isObj(params.update) ? params.update : undefined;
  if (!u) return e.summary;
  switch (e.tag) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
      return contentText(u.content);
    case 'tool_call':
    case 'tool_call_update': {
      const parts: string[] = [];
      if (typeof u.title === 'string') parts.push(u.title);
      if (u.rawInput !== undefined) parts.push(`input: ${showJson(u.rawInput)}`);
      if (Array.isArray(u.content)) {
        for (const c of u.content) {
          if (isObj(c) && c.type === 'content') parts.push(contentText(c.content));
          else if (isObj(c) && c.type === 'diff') parts.push(`diff ${str(c.path) ?? ''}`);
        }
      }
      if (u.rawOutput !== undefined && !Array.isArray(u.content)) parts.push(`output: ${showJson(u.rawOutput)}`);
      return parts.join('\n');
    }
    default: {
      const { sessionUpdate: _tag, ...rest } = u;
      return Object.keys(rest).length ? showJson(rest) : e.summary;
    }
  }
}
