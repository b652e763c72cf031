/**
 * What `inspect` needs beyond findings, gathered as the session streams: what the session records about itself,
 * the last prompt turn on the live branch and how it ended, sub-agents still running, and tool pairing with
 * arguments kept.
 */
import { IDENTITY_KIND, type SessionIdentity } from '../model/identity.js';
import type { SessionObserver } from '../model/session.js';
import type { PairingDialect } from '../pairing/dialect.js';
import { PairingCollector } from '../pairing/collect.js';
import type { DamageCode } from '../model/records.js';
import { closesTurn } from '../model/events.js';

export interface TurnInfo {
  seq: number;
  file: string;
  line: number;
  promptIndex?: number;
  text: string;
  timeMs?: number;
}

/** Damage after which a line's records are not what the agent will load (it skips the line, or parts are lost). */
export const LOSSY_DAMAGE: ReadonlySet<DamageCode> = new Set<DamageCode>([
  'JSONL_TORN_TAIL',
  'JSONL_BAD_LINE',
  'JSONL_MERGED_LINE',
  'JSONL_INVALID_UTF8',
  'JSONL_NUL_BYTES',
  'JSONL_BOM',
  'JSONL_OVERSIZED_LINE',
  'JSONL_TOO_DEEP',
]);

/** A conversation line the agent's loader will skip: unparseable, or a record we recovered from a damaged line. */
export interface LostLine {
  file: string;
  line: number;
  /** What we recovered from it (absent: nothing could be read). */
  item?: { type: string; text?: string };
  /** The line parses, but the agent's parser refuses it (a repeated field). */
  refused?: boolean;
  code?: DamageCode;
}

export interface InspectData {
  /** What the session records about itself (its identity document, or its log's own records). */
  identity?: SessionIdentity;
  lastTurn?: TurnInfo;
  /** The turn_completed that closed the last turn, if any. */
  lastTurnEnd?: { file: string; line: number; stopReason?: string; timeMs?: number };
  lastEvent?: { line: number; timeMs?: number; summary: string };
  logLines: number;
  liveTurns: number;
  rewinds: number;
  compactions: number;
  /** Conversation items the agent will load (recovered ones excluded: the agent skips their lines). */
  chatItems: number;
  /** Conversation lines the agent's loader will skip, in file order. */
  lostLines: LostLine[];
  /** Every file with damage that loses or changes records, with its first damaged line. */
  damagedFiles: Map<string, number>;
  lastChatPrompt?: { file: string; line: number; text: string };
  /** The last prompt on disk, when it is on a damaged line (the model will not see it). */
  lostPrompt?: { file: string; line: number; text: string };
  /** The last access policy the log recorded (agents that record one per turn). */
  lastPolicy?: string;
  unfinishedSpawns: Array<{ id: string; file: string; line: number; summary: string }>;
  pairing: PairingCollector;
}

/**
 * `rejectsDuplicateFields`: the agent's parser refuses a record whose own fields repeat (it skips that line, so the
 * model never sees it).
 */
export function inspectCollector(
  dialect: PairingDialect,
  rejectsDuplicateFields = false,
): { run: SessionObserver; data: InspectData } {
  const data: InspectData = {
    logLines: 0,
    liveTurns: 0,
    rewinds: 0,
    compactions: 0,
    chatItems: 0,
    lostLines: [],
    damagedFiles: new Map(),
    unfinishedSpawns: [],
    pairing: new PairingCollector(dialect, { keepDetail: true }),
  };
  let logEnded = false;
  const spawned = new Map<string, { file: string; line: number; summary: string }>();
  const turns: Array<{ turn: TurnInfo; end?: InspectData['lastTurnEnd'] }> = [];
  let dead: ReadonlyArray<readonly [number, number]> = [];
  /** Lossy damage per file, line by line: kept to tell which belong to the conversation at the end. */
  const damaged: Array<{ file: string; line: number; code: DamageCode }> = [];
  const chatFiles = new Set<string>();
  /** Lines whose record the agent's parser refuses (a repeated top-level field), by file. */
  const refused = new Map<string, Set<number>>();
  /** The last event's line, and whether it is a sub-agent's own (the conversation items of its line are too). */
  let lastAt: { file: string; line: number; subagent: boolean } | undefined;
  const run: SessionObserver = {
    doc({ kind, value }) {
      if (kind === IDENTITY_KIND && typeof value === 'object' && value !== null)
        data.identity = value as SessionIdentity;
    },
    event(e) {
      if (e.policy && !e.policy.oneCall) data.lastPolicy = e.policy.label;
      data.pairing.event(e);
      data.logLines++;
      data.lastEvent = { line: e.line, timeMs: e.timeMs, summary: e.summary };
      lastAt = { file: e.file, line: e.line, subagent: e.subagentId !== undefined };
      // A sub-agent's own prompts (its transcript streamed with the session's) open its turns, not the session's.
      if (e.opensTurn && e.subagentId === undefined) {
        const t: TurnInfo = { seq: e.seq, file: e.file, line: e.line, text: e.summary };
        if (e.promptIndex !== undefined) t.promptIndex = e.promptIndex;
        if (e.timeMs !== undefined) t.timeMs = e.timeMs;
        turns.push({ turn: t });
      }
      const current = turns.at(-1);
      // The agent's end of a turn, a line that ends it (closesTurn), or a reply that ends its turn itself (an agent
      // that writes no record of its own for the end of a turn).
      const ends = closesTurn(e) || (e.kind === 'model_text' && e.stopReason === 'end_turn');
      if (ends && current && e.subagentId === undefined) {
        current.end = { file: e.file, line: e.line };
        if (e.stopReason !== undefined) current.end.stopReason = e.stopReason;
        if (e.timeMs !== undefined) current.end.timeMs = e.timeMs;
      }
      if (e.kind === 'rewind_marker') data.rewinds++;
      if (e.kind === 'compaction_checkpoint') data.compactions++;
      if (e.kind === 'subagent_spawned' && e.subagentId !== undefined) {
        spawned.set(e.subagentId, { file: e.file, line: e.line, summary: e.summary });
      }
      if (e.kind === 'subagent_finished' && e.subagentId !== undefined) spawned.delete(e.subagentId);
    },
    record({ file, record }) {
      if (!rejectsDuplicateFields || record.duplicateKey?.pointer !== '') return;
      let lines = refused.get(file);
      if (!lines) refused.set(file, (lines = new Set()));
      lines.add(record.line);
      // The agent skips the line on load, and Grok's load then rewrites the file without it.
      if (!data.damagedFiles.has(file)) data.damagedFiles.set(file, record.line);
    },
    chat(c) {
      data.pairing.chat(c);
      chatFiles.add(c.file);
      const ofSubagent = lastAt?.subagent === true && lastAt.file === c.file && lastAt.line === c.line;
      const prompt =
        !ofSubagent &&
        c.type === 'user' &&
        (c.promptIndex !== undefined || c.syntheticReason === undefined) &&
        !dialect.preamble?.test(c.text ?? '');
      const isRefused = refused.get(c.file)?.has(c.line) === true;
      if (c.recovered !== undefined || isRefused) {
        const item: LostLine['item'] = { type: c.type };
        if (c.text !== undefined) item.text = c.text;
        data.lostLines.push(
          isRefused ? { file: c.file, line: c.line, item, refused: true } : { file: c.file, line: c.line, item },
        );
        if (prompt) data.lostPrompt = { file: c.file, line: c.line, text: c.text ?? '' };
        return;
      }
      data.chatItems++;
      if (prompt) {
        data.lastChatPrompt = { file: c.file, line: c.line, text: c.text ?? '' };
        delete data.lostPrompt;
      }
    },
    damage({ file, damage }) {
      if (!LOSSY_DAMAGE.has(damage.code)) return;
      if (!data.damagedFiles.has(file)) data.damagedFiles.set(file, damage.line);
      if (damage.count === undefined) damaged.push({ file, line: damage.line, code: damage.code });
    },
    fileEnd(f) {
      // The authoritative log is the first file whose end says what its replay keeps.
      if (logEnded || (f.dead === undefined && f.liveTurns === undefined)) return;
      logEnded = true;
      data.pairing.logEnd(f.dead);
      data.liveTurns = f.liveTurns ?? 0;
      dead = f.dead ?? [];
    },
    end() {
      // Lines of the conversation that yielded nothing (recovered items are already counted, line by line).
      const seen = new Set(data.lostLines.map((l) => `${l.file}:${l.line}`));
      for (const d of damaged) {
        if (!chatFiles.has(d.file) || seen.has(`${d.file}:${d.line}`)) continue;
        seen.add(`${d.file}:${d.line}`);
        data.lostLines.push({ file: d.file, line: d.line, code: d.code });
      }
      data.lostLines.sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
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
