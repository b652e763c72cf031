/**
 * What `inspect` needs beyond findings, gathered as the session streams: the summary, the last prompt turn on
 * the live branch and how it ended, subagents still running, and tool pairing with arguments kept.
 */
import type { CheckRun } from '../checks/define.js';
import { summaryView, type SummaryView } from '../formats/grok/summary-view.js';
import { PairingCollector } from '../pairing/collect.js';
import { IDENTITY_KIND, type SessionIdentity } from '../model/identity.js';
import type { FormatModule } from '../formats/types.js';

export interface TurnInfo {
  seq: number;
  file: string;
  line: number;
  promptIndex?: number;
  text: string;
  timeMs?: number;
}

export interface InspectData {
  summary?: SummaryView;
  model?: string;
  lastTurn?: TurnInfo;
  /** The turn_completed that closed the last turn, if any. */
  lastTurnEnd?: { file: string; line: number; stopReason?: string; timeMs?: number };
  lastEvent?: { line: number; timeMs?: number; summary: string };
  logLines: number;
  liveTurns: number;
  rewinds: number;
  compactions: number;
  chatItems: number;
  lastChatPrompt?: { file: string; line: number; text: string };
  /** A Codex / Claude Code session: what its records say about it, and the last access policy recorded. */
  identity?: SessionIdentity;
  lastPolicy?: string;
  /** The format (absent: Grok Build). */
  format?: FormatModule;
  runningMetas: Array<{ id: string; file: string; description?: string; startedAt?: string }>;
  unfinishedSpawns: Array<{ id: string; line: number; summary: string }>;
  pairing: PairingCollector;
}

export function inspectCollector(format?: FormatModule): { run: CheckRun; data: InspectData } {
  const data: InspectData = { logLines: 0, liveTurns: 0, rewinds: 0, compactions: 0, chatItems: 0, runningMetas: [], unfinishedSpawns: [], pairing: new PairingCollector({ keepDetail: true }) };
  // Grok: updates.jsonl is the log, chat_history.jsonl the conversation. Codex / Claude Code: one log holds both.
  const grok = format === undefined || format.name === 'grok';
  if (!grok) data.format = format;
  let logEnded = false;
  const spawned = new Map<string, { line: number; summary: string }>();
  const turns: Array<{ turn: TurnInfo; end?: InspectData['lastTurnEnd'] }> = [];
  let dead: ReadonlyArray<readonly [number, number]> = [];
  const run: CheckRun = {
    doc({ file, kind, value }) {
      if (kind === IDENTITY_KIND && typeof value === 'object' && value !== null) data.identity = value as SessionIdentity;
      if (kind === 'summary') {
        data.summary = summaryView(value);
        const m = (value as { current_model_id?: unknown } | null)?.current_model_id;
        if (typeof m === 'string') data.model = m;
      }
      if (kind === 'subagent-meta' && typeof value === 'object' && value !== null) {
        const v = value as Record<string, unknown>;
        if (v.status === 'running') {
          const row: InspectData['runningMetas'][number] = { id: String(v.subagent_id ?? file.split('/')[1]), file };
          if (typeof v.description === 'string') row.description = v.description;
          if (typeof v.started_at === 'string') row.startedAt = v.started_at;
          data.runningMetas.push(row);
        }
      }
    },
    event(e) {
      if (grok && e.file !== 'updates.jsonl') return;
      if (e.policy && !e.policy.oneCall) data.lastPolicy = e.policy.label;
      data.pairing.event(e);
      data.logLines++;
      data.lastEvent = { line: e.line, timeMs: e.timeMs, summary: e.summary };
      if (e.opensTurn) {
        const t: TurnInfo = { seq: e.seq, file: e.file, line: e.line, text: e.summary };
        if (e.promptIndex !== undefined) t.promptIndex = e.promptIndex;
        if (e.timeMs !== undefined) t.timeMs = e.timeMs;
        turns.push({ turn: t });
      }
      const current = turns.at(-1);
      if (e.kind === 'turn_completed' && current) {
        current.end = { file: e.file, line: e.line };
        if (e.stopReason !== undefined) current.end.stopReason = e.stopReason;
        if (e.timeMs !== undefined) current.end.timeMs = e.timeMs;
      }
      if (e.kind === 'rewind_marker') data.rewinds++;
      if (e.kind === 'compaction_checkpoint') data.compactions++;
      if (e.kind === 'subagent_spawned' && e.subagentId !== undefined) spawned.set(e.subagentId, { line: e.line, summary: e.summary });
      if (e.kind === 'subagent_finished' && e.subagentId !== undefined) spawned.delete(e.subagentId);
    },
    chat(c) {
      if (grok && c.file !== 'chat_history.jsonl') return;
      data.pairing.chat(c);
      data.chatItems++;
      if (c.type === 'user' && (c.promptIndex !== undefined || c.syntheticReason === undefined) && !/^<user_info>/.test(c.text ?? '')) data.lastChatPrompt = { file: c.file, line: c.line, text: c.text ?? '' };
    },
    fileEnd(f) {
      if (grok ? f.file !== 'updates.jsonl' : logEnded) return;
      logEnded = true;
      data.pairing.logEnd(f.dead);
      data.liveTurns = f.liveTurns ?? 0;
      dead = f.dead ?? [];
    },
    end() {
      data.unfinishedSpawns = [...spawned].map(([id, s]) => ({ id, ...s }));
      // The last turn on the live branch: a rewind may have cut the latest ones.
      const live = [...turns].reverse().find((t) => !dead.some(([a, b]) => t.turn.seq >= a && t.turn.seq < b));
      if (live) {
        data.lastTurn = live.turn;
        if (live.end) data.lastTurnEnd = live.end;
      }
    },
  };
  return { run, data };
}
