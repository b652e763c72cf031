/**
 * Claude Code home cases (home-artifacts.md §3.1): the clean transcripts inside `.claude/projects/` beside
 * `.claude/history.jsonl`, whose lines are the prompts typed in them (`{display, pastedContents, timestamp (ms),
 * project, sessionId}`, a slash command among them), and one case per thing the history can prove.
 */
import type { Case, Files } from './case-kit.js';
import { CLAUDE_CWD, claudeCleanTree } from './cases-claude.js';
import { PLANTED } from './secrets.js';

export interface Line {
  display: string;
  pastedContents: Record<string, never>;
  timestamp: number;
  project: string;
  sessionId?: string;
}

/** Every typed prompt of the clean transcripts, in time order, with a /clear after the first. */
export function cleanHistory(files: Files): Line[] {
  const out: Line[] = [];
  for (const [path, content] of files) {
    if (!/^projects\/[^/]+\/[^/]+\.jsonl$/.test(path)) continue;
    for (const text of String(content).split('\n')) {
      if (!text) continue;
      const v = JSON.parse(text) as {
        type?: string;
        isCompactSummary?: boolean;
        isMeta?: boolean;
        sessionId?: string;
        timestamp?: string;
        message?: { content?: unknown };
      };
      const c = v.message?.content;
      // Typed prompts only: not a compaction's summary, nor what Claude Code itself writes as the user's.
      if (v.type !== 'user' || typeof c !== 'string' || c.startsWith('<') || c.startsWith('[Request')) continue;
      if (v.isCompactSummary === true || v.isMeta === true) continue;
      out.push({
        display: c,
        pastedContents: {},
        timestamp: Date.parse(v.timestamp!),
        project: CLAUDE_CWD,
        sessionId: v.sessionId!,
      });
    }
  }
  out.sort((a, b) => a.timestamp - b.timestamp);
  const first = out[0]!;
  out.splice(1, 0, { ...first, display: '/clear', timestamp: first.timestamp + 1 });
  return out;
}

function homeCase(name: string, description: string, must: string[], edit: (lines: Line[]) => void): Case {
  const tree = claudeCleanTree().files;
  const lines = cleanHistory(tree);
  edit(lines);
  const files: Files = new Map();
  for (const [p, c] of tree) files.set(`.claude/${p}`, c);
  files.set(
    '.claude/history.jsonl',
    lines.map((l) => (typeof l === 'string' ? `${l}\n` : `${JSON.stringify(l)}\n`)).join(''),
  );
  return { name, description, must, files };
}

const GONE = '7a1b2c3d-0000-4000-8000-00000000d0e1';

export function claudeHomeCases(): Case[] {
  return [
    homeCase(
      'home-history-clean',
      'A clean ~/.claude home: the clean transcripts beside history.jsonl, every prompt typed in them (and a /clear, ' +
        'which is no user message). No home code fires.',
      [],
      () => {},
    ),
    homeCase(
      'home-history-gone',
      'history.jsonl holds two prompts of a session two days before its newest line whose transcript is not in ' +
        'projects/: within the 30-day cleanup, so deleted by hand or a partial copy (a warning, with what ' +
        'the history holds).',
      ['CLAUDE_HISTORY_SESSION_GONE'],
      (lines) => {
        const t = lines.at(-1)!.timestamp - 2 * 86_400_000;
        lines.push({
          display: 'Rotate the deploy key.',
          pastedContents: {},
          timestamp: t,
          project: CLAUDE_CWD,
          sessionId: GONE,
        });
        lines.push({
          display: 'Push it.',
          pastedContents: {},
          timestamp: t + 60_000,
          project: CLAUDE_CWD,
          sessionId: GONE,
        });
        lines.sort((a, b) => a.timestamp - b.timestamp);
      },
    ),
    homeCase(
      'home-history-secret',
      'history.jsonl keeps a prompt holding an API key, of a session whose transcript is gone: the key outlives ' +
        'the transcript in the history (SECRET_IN_HOME, its value never shown; the gone session is reported with ' +
        'its first prompt redacted).',
      ['CLAUDE_HISTORY_SESSION_GONE', 'SECRET_IN_HOME'],
      (lines) => {
        lines.push({
          display: `Use this key for the staging client: ${PLANTED['api-key']!}`,
          pastedContents: {},
          timestamp: lines.at(-1)!.timestamp - 86_400_000,
          project: CLAUDE_CWD,
          sessionId: GONE,
        });
        lines.sort((a, b) => a.timestamp - b.timestamp);
      },
    ),
    homeCase(
      'home-history-prompt-missing',
      "history.jsonl records a prompt of the first session, after its transcript's last line, that the transcript " +
        'does not hold: the transcript was cut after it.',
      ['CLAUDE_HISTORY_PROMPT_MISSING'],
      (lines) => {
        const first = lines[0]!;
        const last = Math.max(...lines.filter((l) => l.sessionId === first.sessionId).map((l) => l.timestamp));
        lines.push({ ...first, display: 'Also drop the old migrations.', timestamp: last + 3_600_000 });
      },
    ),
    homeCase(
      'home-history-damaged',
      'history.jsonl has an older line without sessionId, a line dated in 2099 and a cut line: each said once, and ' +
        'the 2099 line is never the time ages are measured against.',
      ['CLAUDE_HISTORY_LEGACY_LINES', 'CLAUDE_HISTORY_TIME_FUTURE', 'CLAUDE_HISTORY_UNREADABLE'],
      (lines) => {
        const first = lines[0]!;
        lines.unshift({
          display: 'an old prompt',
          pastedContents: {},
          timestamp: first.timestamp - 1,
          project: CLAUDE_CWD,
        });
        lines.push({ ...first, timestamp: Date.UTC(2099, 0, 1) });
        (lines as unknown[]).push('{"display":"cut sh');
      },
    ),
  ];
}
