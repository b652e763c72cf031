/**
 * SECRET_IN_HOME: a secret in the text an agent's home keeps of its sessions (a prompt history, a search index's
 * rows, Codex's state DB, Gemini's logs.json; history lines that name no session too): what the agent's home
 * checks recall of every session (HomeCheckContext.recalled), scanned by the detectors of SECRET_IN_SESSION
 * (secrets/). These files outlive the logs: deleting a session, or rotating its log, leaves the credential here.
 * The value is never printed: its kind and a short hash (the same as SECRET_IN_SESSION gives the same value) stand
 * for it.
 */
import { createHash } from 'node:crypto';
import { findSecrets } from '../secrets/detectors.js';
import { mayHoldSecret } from '../secrets/literals.js';
import { defineHomeCheck } from './define-home.js';

const shortHash = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 12);

export const homeSecrets = defineHomeCheck({
  id: 'home-secrets',
  codes: {
    SECRET_IN_HOME: {
      severity: 'warning',
      title: "A credential is written in an agent's home file",
      help:
        "The text an agent's home keeps of its sessions holds something that looks like a secret, found by the " +
        'detectors of SECRET_IN_SESSION: a prompt in a prompt history (Grok per-cwd prompt_history.jsonl, Claude ' +
        "and Codex history.jsonl, Gemini logs.json), a title, prompt, reply or tool path in Grok's search index, " +
        "a title or first prompt in Codex's state_5.sqlite. These files " +
        "are not deleted with the session's log, so the credential stays on disk after the session is gone. One " +
        'finding per occurrence, with the file, its line where the file has lines, and the session the entry ' +
        'names; the value is never shown, only its kind and the first 12 hex digits of its sha256 (a secret found ' +
        'by SECRET_IN_SESSION too has the same hash). Rotate the credential, and share the home only through ' +
        '`bundle --redact`, which redacts the histories and withholds the databases. Older history lines that name ' +
        'no session (Claude Code wrote them without a sessionId) are scanned too.',
    },
  },
  run(ctx) {
    const kept = "the file keeps it when the session's log is deleted";
    const gone = "the session's log is gone from this home, the file still keeps it";
    const unlinked = 'an older line, kept whatever became of its session';
    const seen = new Map<string, number>();
    ctx.recalled((e) => {
      if (!mayHoldSecret(e.text)) return;
      const what = e.kind === 'user_prompt' ? 'a prompt' : e.kind === 'reply' ? "the agent's reply" : 'an entry';
      for (const m of findSecrets(e.text)) {
        const value = e.text.slice(m.valueStart, m.end);
        const hash = shortHash(value);
        const where = `${e.file}:${e.line ?? ''}:${e.session}:${hash}`;
        const n = seen.get(where) ?? 0;
        seen.set(where, n + 1);
        ctx.emit(
          'SECRET_IN_HOME',
          {
            file: e.file,
            ...(e.line !== undefined ? { line: e.line } : {}),
            ...(e.byteOffset !== undefined ? { byteOffset: e.byteOffset } : {}),
          },
          `${m.kind} in ${what} ${e.session === '' ? 'that names no session' : `of session ${e.session}`} ` +
            `(sha256 ${hash}…, ${value.length} characters; the value is not shown): ` +
            `${e.session === '' ? unlinked : ctx.sessions.has(e.session) ? kept : gone}`,
          { key: `${e.session}:${hash}:${n}` },
        );
      }
    });
  },
});
