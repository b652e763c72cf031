/**
 * `~/.claude.json` `projects` judged against the transcripts of the home (home-artifacts.md §3.2): a project's
 * `lastSessionId` (the last session that exited there) whose transcript is gone (CCJ-1), one that is not the newest
 * transcript of its project (CCJ-2, a crash hint), and tools granted for a project none of whose transcripts is left
 * (CCJ-3). Nothing of the file is quoted but the project's path and the session id.
 */
import { join } from 'node:path';
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { excerpt } from '../../../checks/excerpt.js';
import type { FoundSession } from '../../../model/found.js';
import { CONFIG_FILE, pointerToken, projectFolder, readConfig, type ProjectEntry } from './config-file.js';
import { CLEANUP_DAYS, count, DAY_MS, homeDates, isoDay, type HomeDates } from './dating.js';

type Codes =
  | 'CLAUDE_PROJECT_LAST_SESSION_GONE'
  | 'CLAUDE_PROJECT_LAST_SESSION_NOT_NEWEST'
  | 'CLAUDE_PROJECT_GRANTS_WITHOUT_TRANSCRIPT'
  | 'CLAUDE_CONFIG_UNREADABLE';
type Ctx = HomeCheckContext<Codes>;

const FUTURE_SLACK_MS = DAY_MS;
const at = (p: ProjectEntry, field: string) => ({
  file: CONFIG_FILE,
  pointer: `/projects/${pointerToken(p.path)}/${field}`,
});

/** The transcripts in the project's own folder under projects/ (the folder's name is lossy: two paths may share it). */
function folderSessions(ctx: Ctx, p: ProjectEntry): FoundSession[] {
  const dir = join(ctx.home.abs, 'projects', projectFolder(p.path));
  return [...ctx.sessions.values()].flat().filter((s) => s.groupAbs === dir);
}

interface Span {
  lastMs?: number;
  /** The cwds its records name. */
  cwds: Set<string>;
  readable: boolean;
}

function span(ctx: Ctx, s: FoundSession): Span {
  const out: Span = { cwds: new Set(), readable: false };
  out.readable = ctx.events(s, (e, r) => {
    if (e.timeMs !== undefined && e.timeMs <= ctx.now + FUTURE_SLACK_MS && e.timeMs > (out.lastMs ?? -Infinity))
      out.lastMs = e.timeMs;
    const cwd = (r.value as { cwd?: unknown } | null)?.cwd;
    if (typeof cwd === 'string') out.cwds.add(cwd);
  });
  return out;
}

function judgeGone(ctx: Ctx, p: ProjectEntry, id: string, dates: HomeDates): void {
  const last = dates.lastBySession.get(id);
  let severity: 'warning' | 'note' = 'note';
  let cause: string;
  if (last === undefined || dates.newest === undefined)
    cause =
      'No file of this home dates it (history.jsonl holds no prompt of it), so its age cannot be measured against ' +
      "Claude Code's cleanupPeriodDays: deleted by that cleanup, by hand, or this copy of the home is partial.";
  else {
    const days = Math.floor((dates.newest - last) / DAY_MS);
    if (dates.newest - last > CLEANUP_DAYS * DAY_MS)
      cause =
        `Its last prompt in history.jsonl is ${days} days before the newest line there (${isoDay(dates.newest)}), ` +
        "longer than Claude Code's cleanupPeriodDays (30 days by default): that cleanup deletes such transcripts.";
    else {
      severity = 'warning';
      cause =
        `Its last prompt in history.jsonl is ${count(days, 'day')} before the newest line there ` +
        `(${isoDay(dates.newest)}), within Claude Code's cleanupPeriodDays (30 days by default): it was deleted by ` +
        'hand or moved, or this copy of the home is partial.';
    }
  }
  const shown = excerpt(p.path, 200);
  ctx.emit(
    'CLAUDE_PROJECT_LAST_SESSION_GONE',
    at(p, 'lastSessionId'),
    `session ${id}: ~/.claude.json names it the last session that exited in ${shown}, but no transcript of it is ` +
      `in this home. ${cause}`,
    { key: id, severity },
  );
  ctx.gone({ id, source: CONFIG_FILE, prompts: 0, cwd: p.path });
}

function judgeNewest(ctx: Ctx, p: ProjectEntry, id: string, own: readonly FoundSession[]): void {
  const others = folderSessions(ctx, p).filter((s) => s.id !== id);
  if (others.length === 0) return;
  let lastMs: number | undefined;
  for (const s of own) {
    const sp = span(ctx, s);
    if (sp.lastMs !== undefined && sp.lastMs > (lastMs ?? -Infinity)) lastMs = sp.lastMs;
  }
  if (lastMs === undefined) return;
  const newer: Array<{ id: string; lastMs: number }> = [];
  for (const s of others) {
    const sp = span(ctx, s);
    // A transcript of another path that shares the folder's name is not this project's.
    if (!sp.readable || sp.lastMs === undefined || (sp.cwds.size > 0 && !sp.cwds.has(p.path))) continue;
    if (sp.lastMs > lastMs) newer.push({ id: s.id, lastMs: sp.lastMs });
  }
  if (newer.length === 0) return;
  newer.sort((a, b) => b.lastMs - a.lastMs || (a.id < b.id ? -1 : 1));
  const newest = newer[0]!;
  ctx.emit(
    'CLAUDE_PROJECT_LAST_SESSION_NOT_NEWEST',
    at(p, 'lastSessionId'),
    `session ${id}: ~/.claude.json names it the last session that exited in ${excerpt(p.path, 200)}, but ` +
      `${count(newer.length, 'transcript')} of that project end later (the latest, ${newest.id}, at ` +
      `${new Date(newest.lastMs).toISOString()}; ${id} ends at ${new Date(lastMs).toISOString()}): ` +
      `${newer.length === 1 ? 'that session' : 'those sessions'} did not exit cleanly (killed, crashed, the ` +
      'machine went down), or still ran when this copy was made, or ran beside it and exited first.',
    { key: id },
  );
}

export const claudeConfig = defineHomeCheck({
  id: 'claude-config',
  codes: {
    CLAUDE_PROJECT_LAST_SESSION_GONE: {
      severity: 'warning',
      title: 'the last session ~/.claude.json records for a project has no transcript',
      help:
        "A project's lastSessionId in ~/.claude.json (the last session that exited in it) has no transcript in the " +
        "home's projects/. Claude Code's cleanupPeriodDays (30 days by default) deletes old transcripts at start-up " +
        "and leaves this entry: the session's age is read from history.jsonl's prompts of it, against that file's " +
        'newest line, never the audit clock. Older than the period is a note (the cleanup deleted it); newer is a ' +
        'warning (deleted by hand or moved, or the copy of the home is partial); a session no file dates is a note.',
    },
    CLAUDE_PROJECT_LAST_SESSION_NOT_NEWEST: {
      severity: 'note',
      title: 'the last session that exited in a project is not its newest transcript',
      help:
        "~/.claude.json records a project's lastSessionId when a session exits, but another transcript of that " +
        'project ends later. The later session did not exit cleanly (killed, crashed, the machine went down), was ' +
        'still running when the home was copied, or ran beside the recorded one and exited before it: a hint to ' +
        'read that transcript for an interrupted end, not a proof.',
    },
    CLAUDE_PROJECT_GRANTS_WITHOUT_TRANSCRIPT: {
      severity: 'note',
      title: 'tools are granted for a project none of whose transcripts is left',
      help:
        '~/.claude.json grants tools for a project (its allowedTools: permission given once, used by every later ' +
        "session there) but the home's projects/ holds no transcript of it: its sessions were deleted by Claude " +
        "Code's cleanupPeriodDays or by hand, or the copy of the home is partial. The grants still apply to the " +
        'next session in that project; the sessions that used them can no longer be read. Only their number is said.',
    },
    CLAUDE_CONFIG_UNREADABLE: {
      severity: 'note',
      title: '~/.claude.json could not be judged',
      help:
        '~/.claude.json, beside ~/.claude/, is a symlink (dotfile managers link it; it is recorded, never followed), ' +
        'cannot be read, is too large, is not JSON, or its projects is not an object (damaged, cut by a full disk, ' +
        'or written by another program): its projects are not judged. No value of the file is quoted.',
    },
  },
  run(ctx) {
    const read = readConfig(ctx);
    if (!read) return;
    if (!read.ok) {
      ctx.emit(
        'CLAUDE_CONFIG_UNREADABLE',
        { file: CONFIG_FILE },
        `~/.claude.json beside this home is not judged: ${read.why}.`,
        { key: 'unreadable' },
      );
      return;
    }
    let dates: HomeDates | undefined;
    for (const p of read.projects) {
      const id = p.lastSessionId;
      const own = id !== undefined ? ctx.sessions.get(id) : undefined;
      if (id !== undefined && !own) judgeGone(ctx, p, id, (dates ??= homeDates(ctx)));
      else if (id !== undefined && own) judgeNewest(ctx, p, id, own);
      if (p.allowedTools > 0 && folderSessions(ctx, p).length === 0 && !own)
        ctx.emit(
          'CLAUDE_PROJECT_GRANTS_WITHOUT_TRANSCRIPT',
          at(p, 'allowedTools'),
          `~/.claude.json grants ${count(p.allowedTools, 'tool')} in ${excerpt(p.path, 200)}, but no transcript of ` +
            "that project is in this home's projects/: its sessions were deleted (Claude Code's cleanupPeriodDays " +
            'or by hand) or this copy is partial; the grants still apply to its next session.',
          { key: p.path },
        );
    }
  },
});
