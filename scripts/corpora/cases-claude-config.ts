/**
 * Claude Code home cases for `~/.claude.json` and `~/.claude/file-history/` (home-artifacts.md §3.2, §3.3), built on
 * the clean home of cases-claude-home.ts: `.claude.json` beside `.claude/` (its projects, with a made-up
 * oauthAccount and userID the checks never quote), the first transcript's file-history-snapshot naming a backup
 * that `file-history/<session>/` holds, and one case per thing these files can prove.
 */
import { createHash } from 'node:crypto';
import type { Case, Files } from './case-kit.js';
import { CLAUDE_CWD, CLAUDE_IDS, PROJECT, claudeCleanTree } from './cases-claude.js';
import { cleanHistory } from './cases-claude-home.js';

const GONE = '7a1b2c3d-0000-4000-8000-00000000c0e1';
const EDITED = `${CLAUDE_CWD}/src/parser.rs`;
const backupOf = (path: string, version: number): string =>
  `${createHash('sha256').update(path).digest('hex').slice(0, 16)}@v${version}`;

interface Project {
  allowedTools: string[];
  lastSessionId?: string;
  hasTrustDialogAccepted?: boolean;
  lastCost?: number;
}

interface Home {
  /** `.claude.json` as text (undefined: the file is not there). */
  config?: string;
  /** Files of the home, relative to `.claude/`. */
  files: Files;
}

/** The session of the clean tree whose transcript ends last, and the other one. */
function byEnd(files: Files): { newest: string; older: string } {
  const end = (id: string): number =>
    Math.max(
      ...String(files.get(`${PROJECT}/${id}.jsonl`))
        .split('\n')
        .filter(Boolean)
        .map((l) => Date.parse((JSON.parse(l) as { timestamp?: string }).timestamp ?? '') || 0),
    );
  return end(CLAUDE_IDS.main) >= end(CLAUDE_IDS.second)
    ? { newest: CLAUDE_IDS.main, older: CLAUDE_IDS.second }
    : { newest: CLAUDE_IDS.second, older: CLAUDE_IDS.main };
}

const configText = (projects: Record<string, Project>): string =>
  `${JSON.stringify(
    {
      numStartups: 12,
      userID: '0000000000000000000000000000000000000000000000000000000000000000',
      oauthAccount: { accountUuid: '00000000-0000-4000-8000-000000000000', emailAddress: 'dev@example.invalid' },
      projects,
    },
    null,
    2,
  )}\n`;

/** The clean home with the first transcript's opening snapshot naming a backup of src/parser.rs (and a new file). */
function cleanHome(): Home & { newest: string; older: string } {
  const tree = claudeCleanTree().files;
  const main = `${PROJECT}/${CLAUDE_IDS.main}.jsonl`;
  const tracked = {
    [EDITED]: { backupFileName: backupOf(EDITED, 1), version: 1, backupTime: '2026-03-10T14:00:01.000Z' },
    [`${CLAUDE_CWD}/NOTES.md`]: { backupFileName: null, version: 1, backupTime: '2026-03-10T14:00:01.000Z' },
  };
  tree.set(
    main,
    String(tree.get(main)).replace('"trackedFileBackups":{}', `"trackedFileBackups":${JSON.stringify(tracked)}`),
  );
  const files: Files = new Map();
  for (const [p, c] of tree) files.set(p, c);
  files.set(
    'history.jsonl',
    cleanHistory(tree)
      .map((l) => `${JSON.stringify(l)}\n`)
      .join(''),
  );
  files.set(`file-history/${CLAUDE_IDS.main}/${backupOf(EDITED, 1)}`, 'fn parse(input: &str) -> Ast {\n');
  const { newest, older } = byEnd(tree);
  return {
    files,
    newest,
    older,
    config: configText({
      [CLAUDE_CWD]: { allowedTools: ['Bash(cargo test:*)'], lastSessionId: newest, hasTrustDialogAccepted: true },
    }),
  };
}

function configCase(
  name: string,
  description: string,
  must: string[],
  edit: (h: ReturnType<typeof cleanHome>) => void,
): Case {
  const h = cleanHome();
  edit(h);
  const files: Files = new Map();
  for (const [p, c] of h.files) files.set(`.claude/${p}`, c);
  if (h.config !== undefined) files.set('.claude.json', h.config);
  return { name, description, must, files };
}

export function claudeConfigCases(): Case[] {
  return [
    configCase(
      'home-config-clean',
      'A clean ~/.claude home with ~/.claude.json beside it: its project names the transcript that ends last as ' +
        'lastSessionId and grants a tool, and the backup the first transcript names is in file-history/. No home ' +
        'code fires.',
      [],
      () => {},
    ),
    configCase(
      'home-config-last-session-gone',
      '~/.claude.json names, for another project, a lastSessionId with no transcript and no prompt in history.jsonl: ' +
        'no file of the home dates it, so it is a note.',
      ['CLAUDE_PROJECT_LAST_SESSION_GONE'],
      (h) => {
        h.config = configText({
          [CLAUDE_CWD]: { allowedTools: [], lastSessionId: h.newest },
          '/home/dev/tool': { allowedTools: [], lastSessionId: GONE, lastCost: 0.42 },
        });
      },
    ),
    configCase(
      'home-config-not-newest',
      "~/.claude.json names the transcript that ends first as its project's lastSessionId: the other one ends " +
        'later and did not exit cleanly, or still ran (a crash hint, a note).',
      ['CLAUDE_PROJECT_LAST_SESSION_NOT_NEWEST'],
      (h) => {
        h.config = configText({ [CLAUDE_CWD]: { allowedTools: [], lastSessionId: h.older } });
      },
    ),
    configCase(
      'home-config-grants-without-transcript',
      '~/.claude.json grants two tools for a project none of whose transcripts is in projects/ (a note: only their ' +
        'number is said).',
      ['CLAUDE_PROJECT_GRANTS_WITHOUT_TRANSCRIPT'],
      (h) => {
        h.config = configText({
          [CLAUDE_CWD]: { allowedTools: [], lastSessionId: h.newest },
          '/home/dev/old': { allowedTools: ['Bash(rm:*)', 'WebFetch(domain:example.invalid)'] },
        });
      },
    ),
    configCase(
      'home-config-unreadable',
      '~/.claude.json is cut short (not JSON): said once, nothing of it quoted, its projects not judged.',
      ['CLAUDE_CONFIG_UNREADABLE'],
      (h) => {
        h.config = h.config!.slice(0, 60);
      },
    ),
    configCase(
      'home-file-history-gone',
      'file-history/ holds two versions of one backup of a session whose transcript is not in projects/: the ' +
        'session edited files (a note; the sessions list shows it gone).',
      ['CLAUDE_FILE_HISTORY_SESSION_GONE'],
      (h) => {
        const hash = backupOf('/home/dev/app/src/lib.rs', 1).replace(/@v1$/, '');
        h.files.set(`file-history/${GONE}/${hash}@v1`, 'pub mod parser;\n');
        h.files.set(`file-history/${GONE}/${hash}@v2`, 'pub mod parser;\npub mod lexer;\n');
      },
    ),
    configCase(
      'home-file-history-backup-missing',
      "The first transcript's file-history-snapshot names a backup that file-history/<session>/ does not hold " +
        '(a warning).',
      ['CLAUDE_FILE_HISTORY_BACKUP_MISSING'],
      (h) => {
        h.files.delete(`file-history/${CLAUDE_IDS.main}/${backupOf(EDITED, 1)}`);
        h.files.set(`file-history/${CLAUDE_IDS.main}/${backupOf(`${CLAUDE_CWD}/Cargo.toml`, 1)}`, '[package]\n');
      },
    ),
  ];
}
