/**
 * `~/.claude/file-history/<sessionId>/<hash>@v<N>` (home-artifacts.md §3.3): the copy of a file Claude Code saves
 * before a session edits it (`<hash>`, 16 hex digits of the file's path; `N`, the version), for undo and rewind. A
 * transcript names each in a `file-history-snapshot` record (`snapshot.trackedFileBackups[<path>].backupFileName`,
 * null for a file that did not exist yet) or, in newer versions, a `file-history-delta` record (`backup`). Claude
 * Code's cleanupPeriodDays (30 days by default) deletes `file-history/<session>/` as it deletes transcripts, by age.
 * A folder whose transcript is gone still proves the session edited files (contents only: the paths were in the
 * transcript, CFH-1); a backup a transcript names that is not in the folder was deleted or never copied (CFH-2).
 */
import { relative } from 'node:path';
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import type { FoundSession } from '../../../model/found.js';
import { count } from './dating.js';

export const FILE_HISTORY = 'file-history';
const VERSION = /@v(\d+)$/;

type Codes = 'CLAUDE_FILE_HISTORY_SESSION_GONE' | 'CLAUDE_FILE_HISTORY_BACKUP_MISSING';
type Ctx = HomeCheckContext<Codes>;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A backup's name as one plain name (anything else cannot be a file of the session's folder). */
const plain = (n: unknown): n is string =>
  typeof n === 'string' && n !== '' && n !== '.' && n !== '..' && !n.includes('/') && !n.includes('\0');

/** The backups a record of a transcript names. */
export function backupsNamed(v: unknown): string[] {
  if (!isObj(v)) return [];
  if (v.type === 'file-history-snapshot' && isObj(v.snapshot) && isObj(v.snapshot.trackedFileBackups))
    return Object.values(v.snapshot.trackedFileBackups)
      .map((b) => (isObj(b) ? b.backupFileName : undefined))
      .filter(plain);
  if (v.type === 'file-history-delta' && isObj(v.backup) && plain(v.backup.backupFileName))
    return [v.backup.backupFileName];
  return [];
}

/** The backups in file-history/, by session folder. */
function folders(ctx: Ctx): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of ctx.source.inventory) {
    const parts = e.path.split('/');
    if (parts.length !== 3 || parts[0] !== FILE_HISTORY) continue;
    const list = out.get(parts[1]!) ?? [];
    list.push(parts[2]!);
    out.set(parts[1]!, list);
  }
  return out;
}

function judgeGone(ctx: Ctx, id: string, names: readonly string[]): void {
  const hashes = new Set(names.map((n) => n.replace(VERSION, '')));
  const versions = names.map((n) => Number(VERSION.exec(n)?.[1] ?? Number.NaN)).filter(Number.isFinite);
  const top = versions.length ? Math.max(...versions) : undefined;
  const dir = `${FILE_HISTORY}/${id}`;
  ctx.emit(
    'CLAUDE_FILE_HISTORY_SESSION_GONE',
    { file: dir },
    `session ${id}: no transcript of it is in this home, but ${dir}/ holds ${count(names.length, 'backup')} of ` +
      `${count(hashes.size, 'file')}${top !== undefined ? ` (versions up to ${top})` : ''} it saved before editing ` +
      "them: the session edited files. Claude Code's cleanupPeriodDays deletes transcripts and these folders by " +
      'age, separately; the transcript was deleted by it or by hand, or this copy of the home is partial. The ' +
      "backups hold the files' contents, not their paths.",
    { key: id },
  );
  ctx.gone({ id, source: dir, prompts: 0 });
}

/** Where the session's log is, relative to the home (its main file: the one `events` streams). */
const logPath = (ctx: Ctx, s: FoundSession): string =>
  `${relative(ctx.home.abs, s.abs)}/${s.members?.find((m) => m.endsWith('.jsonl')) ?? `${s.id}.jsonl`}`;

function judgePresent(ctx: Ctx, id: string, logs: readonly FoundSession[], kept: ReadonlySet<string>): void {
  for (const s of logs) {
    const missing = new Map<string, { line: number; byteOffset: number }>();
    let named = 0;
    const seen = new Set<string>();
    ctx.events(s, (_e, r) => {
      for (const n of backupsNamed(r.value)) {
        if (seen.has(n)) continue;
        seen.add(n);
        named++;
        if (!kept.has(n)) missing.set(n, { line: r.line, byteOffset: r.byteOffset });
      }
    });
    if (missing.size === 0) continue;
    const [first, place] = [...missing][0]!;
    const dir = `${FILE_HISTORY}/${id}`;
    ctx.emit(
      'CLAUDE_FILE_HISTORY_BACKUP_MISSING',
      { file: logPath(ctx, s), line: place.line, byteOffset: place.byteOffset },
      `session ${id}: its transcript names ${count(named, 'backup')} in ${dir}/ and ${missing.size} of them ` +
        `${missing.size === 1 ? 'is' : 'are'} not there (the first, ${first}, at line ${place.line})` +
        `${kept.size === 0 ? `; ${dir}/ holds none` : ''}: Claude Code's cleanupPeriodDays deleted the folder by ` +
        'age while the transcript was kept (a resumed session is newer), the backups were deleted by hand, or this ' +
        'copy of the home left them out. Undo and rewind to those points cannot restore the files.',
      { key: id },
    );
  }
}

export const claudeFileHistory = defineHomeCheck({
  id: 'claude-file-history',
  codes: {
    CLAUDE_FILE_HISTORY_SESSION_GONE: {
      severity: 'note',
      title: 'file backups of a session whose transcript is gone',
      help:
        '~/.claude/file-history/<session>/ holds the copies Claude Code saved before the session edited files, but ' +
        "the session's transcript is not in the home's projects/. Claude Code's cleanupPeriodDays (30 days by " +
        'default) deletes both by age, each on its own; the transcript was deleted by that cleanup or by hand, or ' +
        'the copy of the home is partial. The backups prove the session edited files and hold their contents (the ' +
        'paths were in the transcript).',
    },
    CLAUDE_FILE_HISTORY_BACKUP_MISSING: {
      severity: 'warning',
      title: 'a file backup a transcript names is not in file-history',
      help:
        "A transcript's file-history-snapshot (or file-history-delta) record names a backup file that is not in " +
        "~/.claude/file-history/<session>/. Claude Code's cleanupPeriodDays deletes that folder by age and a resumed " +
        "session's transcript is newer, so it may outlive it; else the backups were deleted by hand, or the copy of " +
        'the home left file-history/ out. Undo and rewind to those points cannot restore the files.',
    },
  },
  run(ctx) {
    const byFolder = folders(ctx);
    for (const [id, names] of [...byFolder].sort(([a], [b]) => (a < b ? -1 : 1)))
      if (!ctx.sessions.has(id)) judgeGone(ctx, id, names);
    for (const [id, logs] of [...ctx.sessions].sort(([a], [b]) => (a < b ? -1 : 1)))
      judgePresent(ctx, id, logs, new Set(byFolder.get(id) ?? []));
  },
});
