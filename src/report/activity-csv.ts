/**
 * `activity --format csv` and `--format json`. CSV: one row per entry (a command, a file action, a tool that reaches
 * outside with its counts, a failed call), the columns that do not apply to its kind left empty; RFC 4180 with the
 * formula guard of `sessions` (`csvField`), so opening the file never runs what a session wrote.
 */
import type { SessionActivity } from '../model/activity.js';
import { csvField } from './sessions-csv.js';

export const ACTIVITY_CSV_COLUMNS = [
  'session',
  'agent',
  'entry',
  'time',
  'tool',
  'status',
  'exit_code',
  'command',
  'cwd',
  'action',
  'path',
  'reach',
  'server',
  'calls',
  'failed',
  'error',
  'call_id',
  'location',
  'session_path',
] as const;

type Column = (typeof ACTIVITY_CSV_COLUMNS)[number];
type Row = Partial<Record<Column, string | number | null>>;

export function activityCsv(sessions: readonly SessionActivity[]): string {
  const lines = [ACTIVITY_CSV_COLUMNS.join(',')];
  const push = (s: SessionActivity, row: Row): void => {
    const full: Row = { session: s.id, agent: s.agent, ...row, session_path: s.path };
    lines.push(ACTIVITY_CSV_COLUMNS.map((k) => csvField(full[k] ?? null)).join(','));
  };
  for (const s of sessions) {
    for (const e of s.commands)
      push(s, {
        entry: 'command',
        time: e.time,
        tool: e.tool,
        status: e.status,
        exit_code: e.exitCode,
        command: e.command,
        cwd: e.cwd,
        call_id: e.callId,
        location: e.location,
      });
    for (const e of s.files)
      push(s, {
        entry: 'file',
        time: e.time,
        tool: e.tool,
        status: e.status,
        action: e.action,
        path: e.path,
        call_id: e.callId,
        location: e.location,
      });
    for (const t of s.tools)
      push(s, { entry: 'tool', tool: t.tool, reach: t.reach, server: t.server, calls: t.calls, failed: t.failed });
    for (const e of s.failed)
      push(s, {
        entry: 'failed',
        time: e.time,
        tool: e.tool,
        status: e.status,
        error: e.error,
        call_id: e.callId,
        location: e.location,
      });
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function activityJson(sessions: readonly SessionActivity[]): string {
  const out = sessions.map((s) => ({
    id: s.id,
    agent: s.agent,
    path: s.path,
    commands: s.commands,
    files: s.files,
    tools: s.tools,
    failed: s.failed,
  }));
  return `${JSON.stringify({ sessions: out }, null, 2)}\n`;
}
