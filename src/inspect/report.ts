/**
 * The interrupted-session report: what an incident reviewer needs before resuming. Pure: built from what the
 * inspect collector gathered and the audit's findings.
 */
import type { Finding } from '../model/finding.js';
import { isoTime } from '../model/safe-values.js';
import { classifyPairs, type PairRow } from '../pairing/classify.js';
import type { InspectData } from './collect.js';
import { shellQuote as quote } from '../formats/shared/shell.js';

export interface InspectReport {
  session: { id: string; path: string; agent?: string; cwd?: string; sandboxProfile?: string; sessionKind?: string; model?: string; createdAt?: string; updatedAt?: string };
  /** How the session stopped: the last turn completed, was cancelled, or was cut off. */
  state: 'completed' | 'cancelled' | 'ended-with-error' | 'interrupted' | 'no-turns';
  lastTurn?: { promptIndex?: number; prompt: string; file: string; line: number; startedAt?: string; end?: { stopReason?: string; file: string; line: number; at?: string } };
  lastChatPrompt?: { file: string; line: number; text: string };
  /** Calls with no result whose turn never completed (or that are unanswered), newest last. */
  inFlight: PairRow[];
  subagentsRunning: Array<{ id: string; why: string; file: string; line?: number }>;
  replay: { chatItems: number; danglingCalls: number; logLines: number; liveTurns: number; rewinds: number; compactions: number };
  resume: { command: string; sandbox: string };
  warnings: string[];
  /** The audit's findings on this session (with the cross-checks of any headless log and exit code given). */
  findings: { error: number; warning: number; note: number; list: Finding[] };
}

const iso = isoTime;

/** POSIX shell quoting. */
export const shellQuote = quote;

export function buildInspect(id: string, path: string, d: InspectData, findings: readonly Finding[]): InspectReport {
  const s = d.summary ?? (d.identity ? { cwd: d.identity.cwd, createdAt: d.identity.createdAt, sessionKind: d.identity.kind, sandboxProfile: d.lastPolicy } : undefined);
  const fm = d.format;
  const agent = fm?.displayName ?? 'Grok';
  const session: InspectReport['session'] = { id, path, agent };
  if (s?.cwd !== undefined) session.cwd = s.cwd;
  if (s?.sandboxProfile !== undefined) session.sandboxProfile = s.sandboxProfile;
  if (s?.sessionKind !== undefined) session.sessionKind = s.sessionKind;
  if (d.model !== undefined) session.model = d.model;
  if (s?.createdAt !== undefined) session.createdAt = s.createdAt;
  if (s?.updatedAt !== undefined) session.updatedAt = s.updatedAt;

  const { rows } = classifyPairs(d.pairing, fm?.pairing ? { dialect: fm.pairing } : {});
  const inFlight = rows.filter((r) => r.status === 'interrupted' || r.status === 'unanswered');
  const stop = d.lastTurnEnd?.stopReason;
  const state: InspectReport['state'] = !d.lastTurn ? 'no-turns' : !d.lastTurnEnd ? 'interrupted' : stop === 'cancelled' ? 'cancelled' : stop === 'error' || stop === 'rate_limit' ? 'ended-with-error' : 'completed';

  const report: InspectReport = {
    session,
    state,
    inFlight,
    subagentsRunning: [
      ...d.runningMetas.map((m) => ({ id: m.id, file: m.file, why: `meta.json still says "running"${m.description ? ` (${m.description})` : ''}${m.startedAt ? `, started ${m.startedAt}` : ''}` })),
      ...d.unfinishedSpawns.filter((u) => !d.runningMetas.some((m) => m.id === u.id)).map((u) => ({ id: u.id, file: 'updates.jsonl', line: u.line, why: `spawned (${u.summary}) with no subagent_finished` })),
    ],
    replay: { chatItems: d.chatItems, danglingCalls: inFlight.filter((r) => r.call).length, logLines: d.logLines, liveTurns: d.liveTurns, rewinds: d.rewinds, compactions: d.compactions },
    resume: fm?.resumeCommand ? {
      command: fm.resumeCommand(d.identity?.id ?? id, s?.cwd),
      sandbox: `no policy travels with the session: a resume runs under the flags and configuration it is started with${d.lastPolicy !== undefined ? `; the session last ran under ${d.lastPolicy}` : ''}`,
    } : {
      command: `cd ${shellQuote(s?.cwd ?? '<the session cwd>')} && grok -r ${shellQuote(id)}`,
      sandbox: s?.sandboxProfile
        ? `the saved sandbox profile ${JSON.stringify(s.sandboxProfile)} applies on resume; an explicit --sandbox with another profile is refused ("cannot resume this session under sandbox profile …")`
        : 'no sandbox profile is recorded: a resume runs under --sandbox, GROK_SANDBOX, the config file, or off, whichever comes first; pass the profile it ran under explicitly',
    },
    warnings: [],
    findings: { error: 0, warning: 0, note: 0, list: [...findings] },
  };
  if (d.lastTurn) {
    const t: NonNullable<InspectReport['lastTurn']> = { prompt: d.lastTurn.text, file: d.lastTurn.file, line: d.lastTurn.line };
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

  const mutating = inFlight.filter((r) => r.mutating);
  if (mutating.length) {
    report.warnings.push(
      `Resuming can repeat side effects. ${mutating.length} call(s) that can change files or run commands were in flight and may already have run: ${mutating.map((r) => `${r.name || r.id}${r.args ? ` ${r.args}` : ''}`).join('; ')}. Check their effects (files, databases, deployments) before resuming, and say in the resume prompt what is already done.`,
    );
  } else if (inFlight.length) {
    report.warnings.push(`${inFlight.length} read-only call(s) were in flight; repeating them is harmless.`);
  }
  if (report.replay.danglingCalls && fm?.pairing) {
    report.warnings.push(`On resume, ${report.replay.danglingCalls} dangling call(s) have no result: ${fm.pairing.unanswered}.`);
  } else if (report.replay.danglingCalls) {
    report.warnings.push(`On resume, Grok's repair answers the ${report.replay.danglingCalls} dangling call(s) with "Tool execution was cancelled by the user (tool … was not executed)": the model will believe they did not run, whatever actually happened.`);
  }
  if (report.subagentsRunning.length) report.warnings.push(`${report.subagentsRunning.length} subagent(s) were running; Grok marks them cancelled on the next load. Their own sessions may hold partial work.`);
  if (state === 'interrupted' && !inFlight.length) report.warnings.push('The last turn never completed although no tool call is pending: the process died while the model was generating or between steps.');

  for (const f of findings) report.findings[f.severity]++;
  if (report.findings.error) report.warnings.push(`The audit found ${report.findings.error} error(s) in the session files (below): damaged evidence may make ${agent}'s view of the session differ from what happened.`);
  return report;
}
