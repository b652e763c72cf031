/**
 * Gemini CLI home cases (formats/gemini-cli.md §1.3, anomalies 26 and 27): the clean Gemini tree inside a `.gemini`
 * home, each project dir with the `logs.json` its Logger writes (every line typed, pretty-printed, a slash command and
 * a shell-mode line among them, the shell line also in `shell_history`), which must stay clean; and one case per
 * GEMINI_LOGS_ code.
 */
import type { Case, Files } from './case-kit.js';
import { geminiCleanTree } from './cases-gemini.js';

export interface LogEntry {
  sessionId: string;
  messageId: number;
  timestamp: string;
  type: string;
  message: string;
}

const DAY = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/** The prompts a session file of the tree records as typed by the user, with their times. */
function promptsOf(content: string): Array<{ id: string; text: string; ms: number }> {
  const out: Array<{ id: string; text: string; ms: number }> = [];
  // A message written again (tokens arriving, a snapshot, a resume) is one prompt typed.
  const seen = new Set<unknown>();
  const add = (id: string, m: Record<string, unknown>): void => {
    if (m.id !== undefined && seen.has(m.id)) return;
    seen.add(m.id);
    const c = m.content;
    const text =
      typeof c === 'string' ? c : Array.isArray(c) ? (c[0] as { text?: string } | undefined)?.text : undefined;
    if (m.type !== 'user' || text === undefined || text.startsWith('<')) return;
    out.push({ id, text, ms: Date.parse(String(m.timestamp)) });
  };
  if (content.startsWith('{\n')) {
    const doc = JSON.parse(content) as { sessionId: string; messages: Array<Record<string, unknown>> };
    for (const m of doc.messages) add(doc.sessionId, m);
    return out;
  }
  let id = '';
  for (const line of content.split('\n')) {
    if (!line) continue;
    const v = JSON.parse(line) as Record<string, unknown> & { $set?: { messages?: Array<Record<string, unknown>> } };
    if (typeof v.sessionId === 'string' && typeof v.projectHash === 'string') id = v.sessionId;
    for (const m of v.$set?.messages ?? []) add(id, m);
    if (typeof v.type === 'string') add(id, v);
  }
  return out;
}

/** Each project dir's logs.json entries for the tree's main session files, by project dir. */
export function cleanLogs(tree: Files): Map<string, LogEntry[]> {
  const out = new Map<string, LogEntry[]>();
  for (const [path, c] of tree) {
    const m = /^tmp\/([^/]+)\/chats\/session-[^/]+\.jsonl?$/.exec(path);
    if (!m || typeof c !== 'string') continue;
    const list = out.get(m[1]!) ?? [];
    for (const p of promptsOf(c)) list.push(entry(list, p.id, p.text, p.ms - 3));
    out.set(m[1]!, list);
  }
  return out;
}

/** An entry as the Logger writes it: messageId counts the session's entries in the file. */
function entry(list: readonly LogEntry[], sessionId: string, message: string, ms: number): LogEntry {
  const messageId = list.filter((e) => e.sessionId === sessionId).length;
  return { sessionId, messageId, timestamp: iso(ms), type: 'user', message };
}

const render = (entries: readonly unknown[]): string => JSON.stringify(entries, null, 2);

const GONE = '9c4e7a21-5d3b-4f60-8a19-2b7c0e5d4f11';
const SHELL_LINE = 'git status';

interface Home {
  logs: Map<string, LogEntry[]>;
  /** Raw logs.json bytes, by project dir (instead of the entries). */
  raw: Map<string, string>;
  extra: Files;
}

function homeCase(
  name: string,
  description: string,
  must: string[],
  edit: (h: Home) => void,
  more: Partial<Case> = {},
) {
  const tree = geminiCleanTree();
  const logs = cleanLogs(tree);
  // A slash command and a shell-mode line: logged before they are handled, never recorded in the session file.
  const app = logs.get('app')!;
  const first = app[0]!;
  const t = Date.parse(first.timestamp);
  app.splice(1, 0, entry(app, first.sessionId, '/stats', t + 10), entry(app, first.sessionId, SHELL_LINE, t + 20));
  const home: Home = { logs, raw: new Map(), extra: new Map([['tmp/app/shell_history', `${SHELL_LINE}\n`]]) };
  edit(home);
  const files: Files = new Map();
  for (const [p, c] of tree) files.set(`.gemini/${p}`, c);
  for (const [project, entries] of home.logs) files.set(`.gemini/tmp/${project}/logs.json`, render(entries));
  for (const [project, raw] of home.raw) files.set(`.gemini/tmp/${project}/logs.json`, raw);
  for (const [p, c] of home.extra) files.set(`.gemini/${p}`, c);
  return { name, description, must, ...more, files } satisfies Case;
}

const newest = (entries: readonly LogEntry[]): number => Math.max(...entries.map((e) => Date.parse(e.timestamp)));

export function geminiHomeCases(): Case[] {
  return [
    homeCase(
      'home-logs-clean',
      'A clean ~/.gemini home: each project dir holds the logs.json of its sessions, every prompt in its session ' +
        'file, a /stats command and a shell-mode line (in shell_history) that the CLI logs and never records. No ' +
        'home code fires.',
      [],
      () => {},
    ),
    homeCase(
      'home-logs-gone',
      'tmp/app/logs.json holds two prompts of a session two days before its newest entry whose session file is ' +
        'not in the home: within the 30-day retention, so deleted by hand or a partial copy (a warning, with what ' +
        'the file holds).',
      ['GEMINI_LOGS_SESSION_GONE'],
      (h) => {
        const app = h.logs.get('app')!;
        const t = newest(app) - 2 * DAY;
        app.unshift(entry(app, GONE, 'Rotate the deploy key.', t), entry(app, GONE, 'Push it.', t + 60_000));
        for (const [i, e] of app.entries())
          e.messageId = app.slice(0, i).filter((o) => o.sessionId === e.sessionId).length;
      },
    ),
    homeCase(
      'home-logs-gone-expired',
      'tmp/app/logs.json holds a session 40 days before its newest entry (the retention cleanup deleted it) and a ' +
        'session of /help and /quit only (deleted as not resumable): both gone, both notes.',
      ['GEMINI_LOGS_SESSION_GONE'],
      (h) => {
        const app = h.logs.get('app')!;
        const t = newest(app);
        const old = '1b2c3d4e-0000-4000-8000-0000000000a1';
        const cmds = '1b2c3d4e-0000-4000-8000-0000000000a2';
        app.unshift(entry([], old, 'Bump the version.', t - 40 * DAY), entry([], cmds, '/help', t - DAY), {
          ...entry([], cmds, '/quit', t - DAY + 5000),
          messageId: 1,
        });
      },
      { maxSeverity: 'note' },
    ),
    homeCase(
      'home-logs-prompt-missing',
      'tmp/app/logs.json records a prompt of the main session, after the last line of its session file, that the ' +
        'file does not hold: the session file was cut after it (or recording stopped).',
      ['GEMINI_LOGS_PROMPT_MISSING'],
      (h) => {
        const app = h.logs.get('app')!;
        const id = app[0]!.sessionId;
        app.push(entry(app, id, 'Also drop the old migrations.', newest(app) + 3_600_000));
      },
    ),
    homeCase(
      'home-logs-other-project',
      "The legacy project dir's logs.json also holds a prompt of the main session, whose file is only in tmp/app/: " +
        'it was moved there by hand.',
      ['GEMINI_LOGS_OTHER_PROJECT'],
      (h) => {
        const [legacy, entries] = [...h.logs].find(([p]) => p !== 'app')!;
        const main = h.logs.get('app')![0]!;
        entries.push({ ...main, messageId: 0 });
        h.logs.set(legacy, entries);
      },
    ),
    homeCase(
      'home-logs-future',
      'tmp/app/logs.json has an entry of the main session dated in 2099: said once, and never the time the ages ' +
        'of gone sessions are measured against.',
      ['GEMINI_LOGS_TIME_FUTURE'],
      (h) => {
        const app = h.logs.get('app')!;
        app.push({ ...entry(app, app[0]!.sessionId, '/stats', Date.UTC(2099, 0, 1)) });
      },
    ),
    homeCase(
      'home-logs-bad-entries',
      'tmp/app/logs.json has an element whose messageId is a string and one nested object: the CLI drops both ' +
        'when it next reads the file.',
      ['GEMINI_LOGS_BAD_ENTRIES'],
      (h) => {
        const app = h.logs.get('app')! as unknown[];
        app.push({ ...(app[0] as LogEntry), messageId: '9' }, { note: { nested: true } });
      },
    ),
    homeCase(
      'home-logs-cut',
      'tmp/app/logs.json was cut in the middle of an entry (the CLI rewrites it whole, not atomically): not valid ' +
        'JSON, which the CLI would move aside at its next start; the complete entries before the cut are judged.',
      ['GEMINI_LOGS_UNREADABLE'],
      (h) => {
        const text = render(h.logs.get('app')!);
        h.raw.set('app', text.slice(0, text.lastIndexOf('"message"') + 14));
      },
    ),
    homeCase(
      'home-logs-not-array',
      'tmp/app/logs.json is a JSON object, not an array: no writer of the CLI writes one.',
      ['GEMINI_LOGS_UNREADABLE'],
      (h) => {
        h.raw.set('app', render([]).replace('[]', '{"logs": []}'));
      },
    ),
    homeCase(
      'home-logs-quarantined',
      'tmp/app/logs.json.invalid_json.<ms>.bak: the CLI could not read its logs.json, moved it aside and began ' +
        'an empty one, which holds the prompts typed since.',
      ['GEMINI_LOGS_QUARANTINED'],
      (h) => {
        const app = h.logs.get('app')!;
        const text = render(app.slice(0, 2));
        const at = newest(app) - DAY;
        h.extra.set(`tmp/app/logs.json.invalid_json.${at}.bak`, `${text.slice(0, -3)}`);
        h.logs.set('app', app.slice(2));
      },
    ),
  ];
}
