/**
 * GEMINI_* of a file as a whole (formats/gemini-cli.md §2.6, §2.7, §4, §8): whether the CLI can load it, whether its
 * startup deletes it (no resumable content, a top-level subagent file; every file sharing the id's first 8
 * characters goes with it), whether a newer CLI rewrote it, the writer's leftovers beside it, and a lastUpdated
 * older than the conversation it closes. Starting Gemini CLI destroys this evidence: every message says so.
 */
import { defineCheck } from '../../../checks/define.js';
import { BACKUP, TEMP } from '../artifacts.js';
import { GEMINI_FILE_KIND } from '../load.js';
import type { GeminiFileFacts } from '../facts.js';

export const BUNDLE_FIRST =
  'bundle or archive it first (session-audit bundle / archive), and never start Gemini CLI with this home';

export const geminiFile = defineCheck({
  id: 'gemini-file',
  validate: true,
  codes: {
    GEMINI_UNLOADABLE: {
      severity: 'error',
      title: 'Gemini CLI cannot load this session file, and its next start deletes it',
      help:
        "The CLI's loader folds the file line by line and needs a metadata line with sessionId and projectHash; " +
        'failing that it parses the whole file as one JSON document. A file with neither (a torn or edited first ' +
        'line, a byte-order mark, an empty or truncated legacy .json) loads as nothing: it is invisible to ' +
        '--resume, and the retention cleanup that runs at every start (v0.33+) deletes it with every file sharing ' +
        'its 8-character id prefix. Bundle or archive first.',
    },
    GEMINI_DELETED_AT_START: {
      severity: 'note',
      title: 'Starting Gemini CLI deletes this session file (nothing in it is resumable)',
      help:
        'The retention cleanup at every start of Gemini CLI (v0.33+, even --list-sessions) deletes a session with ' +
        'no prompt and no model turn (a metadata line and the session context only: a run with no prompt, or the ' +
        'stray file a resume writes for the current minute) and a top-level kind:"subagent" file (the v0.31-0.36 ' +
        'layout), and with it every file sharing its 8-character id prefix: a warning when that is a real ' +
        'conversation beside it. Bundle or archive first.',
    },
    GEMINI_REWRITTEN_BY_CLI: {
      severity: 'note',
      title: 'A legacy session file rewritten by a newer Gemini CLI at startup',
      help:
        'userMessageCount and hasResumableContent are never written by the recorder: they are what the loader of ' +
        'a CLI 0.40+ derives, spread into the file when its startup rewrote the previous session in place to add a ' +
        'summary or memoryScratchpad. The file is not what was recorded during the session; lastUpdated may have ' +
        'moved too (v0.22-v0.39).',
    },
    GEMINI_UNREADABLE_BACKUP: {
      severity: 'warning',
      title: 'The original bytes of a session file the CLI could not read (.unreadable-<ms>)',
      help:
        'When a resume cannot read the session file, the CLI renames it to <file>.unreadable-<ms> and writes a ' +
        'clean file from what it held in memory: the backup holds the bytes as they were, the session file is a ' +
        'rewrite.',
    },
    GEMINI_TEMP_LEFTOVER: {
      severity: 'warning',
      title: 'An interrupted rewrite of a session file (.tmp-<pid>)',
      help:
        'The CLI rewrites a file it could not read through <file>.tmp-<pid> and a rename, unlinking the temporary ' +
        'file when the write fails. One left behind means the process died during the rewrite.',
    },
    GEMINI_LAST_UPDATED_EARLY: {
      severity: 'warning',
      title: "The session's lastUpdated is earlier than its newest message",
      help:
        'The writer sets lastUpdated after every message (a $set after each record; the whole legacy file ' +
        'rewritten with it), so it is never older than the newest message the conversation holds. An older one ' +
        'means the metadata or the messages were edited, or files were spliced.',
    },
  },
  create(ctx) {
    const inventory = ctx.session.inventory;
    return {
      doc({ file, kind, value }) {
        if (kind !== GEMINI_FILE_KIND) return;
        const f = value as GeminiFileFacts;
        const at = { file, line: f.head.line, byteOffset: f.head.byteOffset };
        const others = f.members.filter((m) => m !== file);
        const also = others.length ? ` (with ${others.join(', ')}, which shares its id)` : '';
        if (f.unloadable !== undefined) {
          ctx.emit(
            'GEMINI_UNLOADABLE',
            at,
            `${f.unloadable}: the CLI loads nothing from this file, and its next start deletes it${also}; ` +
              BUNDLE_FIRST,
          );
          return;
        }
        const topSubagent = f.subagent && /^session-/.test(file);
        if (!f.resumable || topSubagent) {
          const why = topSubagent
            ? 'a kind:"subagent" file at the top of chats/ (the v0.31-0.36 layout)'
            : f.main
              ? 'no prompt and no model turn in the conversation the CLI loads'
              : 'no prompt and no model turn: the stray file a resume writes for the current minute';
          ctx.emit(
            'GEMINI_DELETED_AT_START',
            at,
            `${why}: the next start of Gemini CLI deletes it` +
              `${also ? `, and every file sharing its id prefix${also}` : ''}; ${BUNDLE_FIRST}`,
            others.length ? { severity: 'warning' } : undefined,
          );
        }
        if (f.rewrittenKeys.length)
          ctx.emit(
            'GEMINI_REWRITTEN_BY_CLI',
            { ...at, pointer: `/${f.rewrittenKeys[0]}` },
            `the file holds ${f.rewrittenKeys.join(' and ')}, which only the startup of a Gemini CLI 0.40+ writes ` +
              'into the previous session: it was rewritten in place after the session ended',
          );
        if (f.lastUpdatedEarly)
          ctx.emit(
            'GEMINI_LAST_UPDATED_EARLY',
            { file, line: f.lastUpdatedEarly.at.line, byteOffset: f.lastUpdatedEarly.at.byteOffset },
            `lastUpdated is ${f.lastUpdatedEarly.lastUpdated}, earlier than this message ` +
              `(${f.lastUpdatedEarly.latest}): the writer never leaves it so`,
          );
      },
      end() {
        for (const e of inventory) {
          if (e.type !== 'file') continue;
          const backup = BACKUP.exec(e.path)?.[1];
          const temp = TEMP.exec(e.path)?.[1];
          if (backup !== undefined)
            ctx.emit(
              'GEMINI_UNREADABLE_BACKUP',
              { file: e.path },
              `the CLI could not read ${backup} when it resumed the session: this is its original content, and ` +
                `${backup} is a rewrite from memory`,
            );
          if (temp !== undefined)
            ctx.emit(
              'GEMINI_TEMP_LEFTOVER',
              { file: e.path },
              `a rewrite of ${temp} that never completed: the CLI died between writing it and renaming it`,
            );
        }
      },
    };
  },
});
