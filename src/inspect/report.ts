/**
 * The interrupted-session report: what an incident reviewer needs before resuming. Pure: built from what the
 * inspect collector gathered and the audit's findings.
 */
import { basename } from 'node:path';
import type { Finding } from '../model/finding.js';
import { isoTime } from '../model/safe-values.js';
import { classifyPairs } from '../pairing/classify.js';
import type { PairRow } from '../pairing/pairing-result.js';
import type { InspectData, LostLine } from './collect.js';
import { shellQuote } from '../formats/shared/shell.js';
import type { FormatModule } from '../formats/types.js';
import type { HomeView } from '../model/home-view.js';

export interface InspectReport {
  session: {
    id: string;
    path: string;
    agent?: string;
    cwd?: string;
    sandboxProfile?: string;
    sessionKind?: string;
    model?: string;
    createdAt?: string;
    updatedAt?: string;
  };
  /** How the session stopped: the last turn completed, was cancelled, or was cut off. */
  state: 'completed' | 'cancelled' | 'ended-with-error' | 'interrupted' | 'no-turns';
  lastTurn?: {
    promptIndex?: number;
    prompt: string;
    file: string;
    line: number;
    startedAt?: string;
    end?: { stopReason?: string; file: string; line: number; at?: string };
  };
  lastChatPrompt?: { file: string; line: number; text: string };
  /** The last prompt on disk when it is on a damaged line: the agent skips that line, so the model never saw it. */
  lostPrompt?: { file: string; line: number; text: string };
  /** Conversation lines the agent's loader skips (damaged), with what we could recover from them. */
  skipped: LostLine[];
  /** Calls with no result whose turn never completed (or that are unanswered), newest last. */
  inFlight: PairRow[];
  subagentsRunning: Array<{ id: string; why: string; file: string; line?: number }>;
  replay: {
    chatItems: number;
    skippedLines: number;
    danglingCalls: number;
    logLines: number;
    liveTurns: number;
    rewinds: number;
    compactions: number;
  };
  resume: { command: string; sandbox: string };
  /**
   * Whether a resume is safe as far as the files tell: not when a call that can change files or run commands was in
   * flight (it may already have run, and a resume can repeat it) or when the agent's loader drops damaged lines of the
   * conversation (the model resumes without them). `notSafe` says why, one reason a line; `inspect` exits 4 then.
   */
  safeToResume: boolean;
  notSafe: string[];
  warnings: string[];
  /** The audit's findings on this session (with the cross-checks of any headless log and exit code given). */
  findings: { error: number; warning: number; note: number; list: Finding[] };
  /** What the agent's home keeps beside the log that names no session and is tied to this one (grants, events). */
  home?: HomeView;
}

const iso = isoTime;

const clip = (s: string, n = 60): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

const ITEM_NOUNS: Record<string, string> = {
  user: 'a user item',
  assistant: 'an assistant item',
  tool_result: 'a tool result',
  reasoning: 'a reasoning item',
  system: 'a system item',
  unknown: 'an item',
};

/** What a skipped line held, in words. */
function lostWhat(l: LostLine): string {
  if (!l.item) return `(unreadable: ${l.code ?? 'damaged'})`;
  const t = l.item.text ? ` ${JSON.stringify(clip(l.item.text))}` : '';
  const noun = ITEM_NOUNS[l.item.type] ?? `a ${l.item.type} item`;
  return l.refused
    ? `(${noun}${t}, read here but refused by the agent's parser: a repeated field)`
    : `(${noun}${t}, recovered here but skipped by the agent)`;
}

/** The inspect report, and the sentences that say what a resume replays (the text rendering shows them). */
export interface InspectView {
  report: InspectReport;
  replay: string[];
}

export function buildInspect(
  id: string,
  path: string,
  d: InspectData,
  findings: readonly Finding[],
  fm: FormatModule,
): InspectView {
  const s = d.identity;
  const agent = fm.shortName;
  const session: InspectReport['session'] = { id, path, agent };
  if (s?.cwd !== undefined) session.cwd = s.cwd;
  const sandbox = s?.sandboxProfile ?? d.lastPolicy;
  if (sandbox !== undefined) session.sandboxProfile = sandbox;
  if (s?.kind !== undefined) session.sessionKind = s.kind;
  if (s?.model !== undefined) session.model = s.model;
  if (s?.createdAt !== undefined) session.createdAt = s.createdAt;
  if (s?.updatedAt !== undefined) session.updatedAt = s.updatedAt;

  const { rows } = classifyPairs(d.pairing, fm.pairing);
  const running = (s?.subagents ?? []).filter((a) => a.status === 'running');
  const inFlight = rows.filter((r) => r.status === 'interrupted' || r.status === 'unanswered');
  const stop = d.lastTurnEnd?.stopReason;
  const state: InspectReport['state'] = !d.lastTurn
    ? 'no-turns'
    : !d.lastTurnEnd
      ? 'interrupted'
      : stop === 'cancelled'
        ? 'cancelled'
        : stop === 'error' || stop === 'rate_limit'
          ? 'ended-with-error'
          : 'completed';

  const report: InspectReport = {
    session,
    state,
    inFlight,
    subagentsRunning: [
      ...running.map((m) => ({
        id: m.id,
        file: m.file,
        why:
          `${basename(m.file)} still says ` +
          `"running"${m.description ? ` (${m.description})` : ''}${m.startedAt ? `, started ${m.startedAt}` : ''}`,
      })),
      ...d.unfinishedSpawns
        .filter((u) => !running.some((m) => m.id === u.id))
        .map((u) => ({
          id: u.id,
          file: u.file,
          line: u.line,
          why: `spawned (${u.summary}) with no subagent_finished`,
        })),
    ],
    skipped: d.lostLines,
    replay: {
      chatItems: d.chatItems,
      skippedLines: d.lostLines.length,
      danglingCalls: inFlight.filter((r) => r.call).length,
      logLines: d.logLines,
      liveTurns: d.liveTurns,
      rewinds: d.rewinds,
      compactions: d.compactions,
    },
    resume: { command: fm.inspect.resumeCommand(id, s), sandbox: fm.inspect.resumeSandbox(s, d.lastPolicy) },
    safeToResume: true,
    notSafe: [],
    warnings: [],
    findings: { error: 0, warning: 0, note: 0, list: [...findings] },
  };
  if (d.lastTurn) {
    const t: NonNullable<InspectReport['lastTurn']> = {
      prompt: d.lastTurn.text,
      file: d.lastTurn.file,
      line: d.lastTurn.line,
    };
    if (d.lastTurn.promptIndex !== undefined) t.promptIndex = d.lastTurn.promptIndex;
    const started = iso(d.lastTurn.timeMs);
    if (started) t.startedAt = started;
    if (d.lastTurnEnd) {
      t.end = { file: d.lastTurnEnd.file, line: d.lastTurnEnd.line };
      if (d.lastTurnEnd.stopReason !== undefined) t.end.stopReason = d.lastTurnEnd.stopReason;
      const at = iso(d.lastTurnEnd.timeMs);
      if (at) t.end.at = at;
    }
    report.lastTurn = t;
  }
  if (d.lastChatPrompt) report.lastChatPrompt = { ...d.lastChatPrompt };
  if (d.lostPrompt) report.lostPrompt = { ...d.lostPrompt };

  // First: a resume changes damaged evidence, so keep it as it is now.
  if (d.damagedFiles.size) {
    const files = [...d.damagedFiles].map(([f, line]) => `${basename(f)} (line ${line})`);
    report.warnings.push(
      `Bundle before resuming: ${files.length} file(s) have damaged lines, ${files.join(', ')}. ` +
        `${fm.inspect.damagedOnResume}, so the evidence changes. Keep it as it is now: ` +
        `session-audit bundle ${shellQuote(path)} -o ${shellQuote(`${id}-before-resume.zip`)}`,
    );
  }
  if (d.lostLines.length) {
    const shown = d.lostLines.slice(0, 5).map((l) => `${basename(l.file)}:${l.line} ${lostWhat(l)}`);
    report.warnings.push(
      `The model will not see ${d.lostLines.length} damaged line(s) of its history: ${shown.join('; ')}` +
        `${d.lostLines.length > shown.length ? `; and ${d.lostLines.length - shown.length} more` : ''}.` +
        (d.lostPrompt
          ? ` The last prompt on disk (${basename(d.lostPrompt.file)}:${d.lostPrompt.line}) is one of them: the ` +
            'model has not seen it.'
          : ''),
    );
  }

  const mutating = inFlight.filter((r) => r.mutating);
  if (mutating.length)
    report.notSafe.push(
      `${mutating.length} call(s) that can change files or run commands were in flight: ` +
        `${mutating.map((r) => r.id).join(', ')}`,
    );
  if (d.lostLines.length)
    report.notSafe.push(`the agent's loader drops ${d.lostLines.length} damaged line(s) of the conversation`);
  report.safeToResume = report.notSafe.length === 0;
  if (mutating.length) {
    report.warnings.push(
      `Resuming can repeat side effects. ${mutating.length} call(s) that can change files or run commands were in ` +
        `flight and may already have run: ` +
        `${mutating.map((r) => `${r.name || r.id}${r.args ? ` ${r.args}` : ''}`).join('; ')}. Check their effects ` +
        `(files, databases, deployments) before resuming, and say in the resume prompt what is already done.`,
    );
  } else if (inFlight.length) {
    report.warnings.push(`${inFlight.length} read-only call(s) were in flight; repeating them is harmless.`);
  }
  if (report.replay.danglingCalls) report.warnings.push(fm.inspect.danglingOnResume(report.replay.danglingCalls));
  if (report.subagentsRunning.length) {
    report.warnings.push(
      `${report.subagentsRunning.length} subagent(s) were running${fm.inspect.runningSubagents}. Their own ` +
        `sessions may hold partial work.`,
    );
  }
  if (state === 'interrupted' && !inFlight.length)
    report.warnings.push(
      'The last turn never completed although no tool call is pending: the process died while the model was ' +
        'generating or between steps.',
    );

  for (const f of findings) report.findings[f.severity]++;
  if (report.findings.error)
    report.warnings.push(
      `The audit found ${report.findings.error} error(s) in the session files (below): damaged evidence may make ` +
        `${agent}'s view of the session differ from what happened.`,
    );
  return { report, replay: fm.inspect.replay(report.replay) };
}
