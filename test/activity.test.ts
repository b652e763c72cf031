/**
 * `activity`: on every real file in /work/shared/external (Claude, Codex, Pi), every shell command, every file a
 * file tool wrote or edited and every failed tool result appears, against a ground truth read from the file itself
 * with a few lines of JSON walking; a fake home of every agent's clean case lists each session with what it did;
 * the filters; CSV quoting and its formula guard; the table at 80 columns; what each agent's toolView says.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { SessionActivity } from '../src/model/activity.js';
import { FORMATS } from '../src/formats/registry.js';
import { activityCsv } from '../src/report/activity-csv.js';
import { activityTable } from '../src/report/activity-table.js';
import { overWidth } from './helpers/widths.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const EXTERNAL = [join(CORPORA, '..', '..', 'shared', 'external'), '/work/shared/external'].find((p) => existsSync(p));

async function activity(args: string[]): Promise<SessionActivity[]> {
  const r = await cli(['activity', ...args, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { sessions: SessionActivity[] }).sessions;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a file records, read with a few lines of JSON walking: call ids of commands, file changes, failed results. */
interface Truth {
  commands: Set<string>;
  files: Set<string>;
  failed: Set<string>;
}

function truthOf(file: string): Truth {
  const t: Truth = { commands: new Set(), files: new Set(), failed: new Set() };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(v)) continue;
    const m = isObj(v.message) ? v.message : undefined;
    const content = Array.isArray(m?.content) ? (m.content as unknown[]).filter(isObj) : [];
    for (const b of content) {
      // Claude: tool_use and tool_result blocks; Pi: toolCall blocks.
      const name = b.name;
      const id = String(b.id ?? '');
      if (b.type === 'tool_use' || b.type === 'toolCall') {
        if (name === 'Bash' || name === 'bash') t.commands.add(id);
        if (['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'write', 'edit'].includes(String(name))) t.files.add(id);
      }
      if (b.type === 'tool_result' && b.is_error === true) t.failed.add(String(b.tool_use_id));
    }
    if (m?.role === 'toolResult' && m.isError === true) t.failed.add(String(m.toolCallId));
    // Codex: response items.
    const p = isObj(v.payload) ? v.payload : undefined;
    if (v.type === 'response_item' && p) {
      const id = String(p.call_id ?? p.id ?? '');
      if (
        p.type === 'local_shell_call' ||
        (p.type === 'function_call' && ['exec_command', 'shell'].includes(String(p.name)))
      )
        t.commands.add(id);
      if ((p.type === 'custom_tool_call' || p.type === 'function_call') && p.name === 'apply_patch') t.files.add(id);
      if (p.type === 'function_call_output' && isObj(p.output) && p.output.success === false) t.failed.add(id);
    }
    if (
      v.type === 'event_msg' &&
      p?.type === 'exec_command_end' &&
      typeof p.exit_code === 'number' &&
      p.exit_code !== 0
    )
      t.failed.add(String(p.call_id));
  }
  return t;
}

/** Every .jsonl under a directory. */
function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonlFiles(p));
    else if (name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

describe.skipIf(!EXTERNAL)('real files in ../shared/external', () => {
  const agents = ['claude', 'codex', 'pi'];
  const files = EXTERNAL ? agents.flatMap((a) => jsonlFiles(join(EXTERNAL, a))) : [];

  test('there are real files of every agent to read', () => {
    for (const a of agents) expect(files.some((f) => f.includes(`/${a}/`))).toBe(true);
  });

  test.each(files.map((f) => [f.slice(EXTERNAL!.length + 1), f]))('%s', async (_name, file) => {
    const truth = truthOf(file);
    const sessions = await activity([file]);
    expect(sessions.length).toBeGreaterThan(0);
    const commands = new Set(sessions.flatMap((s) => s.commands.map((c) => c.callId)));
    const touched = new Set(sessions.flatMap((s) => s.files.map((f) => f.callId)));
    const failed = new Map(sessions.flatMap((s) => s.failed.map((f) => [f.callId, f] as const)));
    for (const id of truth.commands) expect(commands, `command ${id}`).toContain(id);
    for (const id of truth.files) expect(touched, `file change ${id}`).toContain(id);
    for (const id of truth.failed) {
      expect(failed.has(id), `failed result ${id}`).toBe(true);
      expect(['failed', 'rejected', 'cancelled']).toContain(failed.get(id)!.status);
    }
    // A shell command is never guessed into files: every file entry comes from a file tool or a patch.
    for (const s of sessions)
      for (const f of s.files) expect(['Bash', 'bash', 'exec_command', 'shell']).not.toContain(f.tool);
    for (const s of sessions)
      for (const e of [...s.commands, ...s.files, ...s.failed]) expect(e.location).toMatch(/\.jsonl:\d+$/);
  });

  test('the Pi file before-compaction.jsonl: its 12 failed results, with their errors and exit codes', async () => {
    const file = join(EXTERNAL!, 'pi', 'before-compaction.jsonl');
    const [s] = await activity([file]);
    const results = s!.failed.filter((f) => f.status === 'failed');
    expect(results.length).toBe(truthOf(file).failed.size);
    expect(truthOf(file).failed.size).toBe(12);
    expect(results.every((f) => f.error !== null && f.error !== '')).toBe(true);
    // Pi writes "Command exited with code N" at the end of a failed command's output.
    expect(s!.commands.some((c) => c.status === 'failed' && c.exitCode !== null && c.exitCode > 0)).toBe(true);
    expect(s!.commands.every((c) => c.cwd === '/Users/badlogic/workspaces/pi-mono')).toBe(true);
  });

  test('Claude: a rejected Write is a file change the user refused; WebFetch reaches the web', async () => {
    const [s] = await activity([join(EXTERNAL!, 'claude', 'session-9eda1058.jsonl')]);
    expect(s!.files).toEqual([expect.objectContaining({ action: 'write', status: 'rejected', tool: 'Write' })]);
    expect(s!.failed).toEqual([expect.objectContaining({ tool: 'Write', status: 'rejected' })]);
    const [heavy] = await activity([join(EXTERNAL!, 'claude', 'tool_heavy.jsonl')]);
    expect(heavy!.tools.find((t) => t.tool === 'WebFetch')).toMatchObject({ reach: 'web', calls: 1 });
    expect(heavy!.commands.map((c) => c.cwd)).toEqual(['/home/marco/projects/spotter', '/home/marco/projects/spotter']);
  });

  test('Codex: MCP tools counted by server; a redacted command is still listed, as not recorded', async () => {
    const sessions = await activity([join(EXTERNAL!, 'codex')]);
    const mcp = sessions.flatMap((s) => s.tools).filter((t) => t.reach === 'mcp');
    expect(mcp.map((t) => [t.server, t.tool, t.calls])).toEqual([
      ['cloud-associates', 'mcp__cloud-associates__execute_workflow', 3],
      ['cloud-associates', 'mcp__cloud-associates__search_workflows', 1],
    ]);
    const cmd = sessions.flatMap((s) => s.commands);
    expect(cmd).toEqual([expect.objectContaining({ tool: 'exec_command', command: null, status: 'interrupted' })]);
  });

  test('WebFetch is not labelled mutating in pairs, WebSearch neither; Bash is', async () => {
    const r = await cli(['pairs', join(EXTERNAL!, 'claude', 'tool_heavy.jsonl'), '--format', 'json']);
    const rows = (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ name: string; mutating: boolean }> }> })
      .sessions[0]!.rows;
    const of = (name: string) => rows.find((x) => x.name === name)?.mutating;
    expect([of('WebFetch'), of('WebSearch'), of('Bash')]).toEqual([false, false, true]);
  });
});

let home = '';

/** corpora/<agent>/clean/<from> → <home>/<to>, as each agent keeps its sessions. */
const LAYOUT: Array<[agent: string, from: string, to: string]> = [
  ['grok', 'sessions', '.grok/sessions'],
  ['codex', 'sessions', '.codex/sessions'],
  ['codex', 'archived_sessions', '.codex/archived_sessions'],
  ['claude', 'projects', '.claude/projects'],
  ['pi', 'sessions', '.pi/agent/sessions'],
  ['hermes', '', '.hermes'],
  ['gemini', '', '.gemini'],
  ['copilot', '', '.copilot'],
  ['opencode', '', '.local/share/opencode'],
];

describe('a fake home of every agent', () => {
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'sa-activity-'));
    for (const [agent, from, to] of LAYOUT) {
      mkdirSync(join(home, to, '..'), { recursive: true });
      cpSync(join(CORPORA, agent, 'clean', from), join(home, to), {
        recursive: true,
        filter: (src) => !src.endsWith('expected.json'),
      });
    }
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  test('every session with its agent; each agent shows its commands and files', async () => {
    const sessions = await activity([home]);
    const list = await cli(['sessions', home, '--format', 'json']);
    const rows = (JSON.parse(list.stdout) as { sessions: Array<{ id: string; agent: string }> }).sessions;
    expect(sessions.map((s) => `${s.agent} ${s.id}`).sort()).toEqual(rows.map((r) => `${r.agent} ${r.id}`).sort());
    for (const f of FORMATS) {
      const mine = sessions.filter((s) => s.agent === f.name);
      expect(mine.length, f.name).toBeGreaterThan(0);
      expect(
        mine.some((s) => s.commands.some((c) => c.command !== null)),
        `${f.name} commands`,
      ).toBe(true);
    }
    for (const agent of ['grok', 'codex', 'claude', 'pi'])
      expect(
        sessions.some((s) => s.agent === agent && s.files.some((f) => f.action !== 'read')),
        agent,
      ).toBe(true);
    // The clean cases: Codex's first rollout patches src/lib.rs; Grok's run_command runs in the project.
    const codex = sessions.find((s) => s.id === '019cb100-0000-7000-8000-00000000c001')!;
    expect(codex.files.map((f) => [f.path, f.action])).toContainEqual(['src/lib.rs', 'patch']);
    expect(codex.commands[0]).toMatchObject({ command: 'sed -n 1,80p src/lib.rs', cwd: '/home/dev/app', exitCode: 0 });
    const grok = sessions.find((s) => s.id === '019a3f2c-1d00-7a3e-8000-00000000a001')!;
    expect(grok.commands).toEqual([expect.objectContaining({ command: 'cargo test', status: 'completed' })]);
    const hermes = sessions.find((s) => s.agent === 'hermes')!;
    expect(hermes.commands[0]).toMatchObject({ command: 'df -h /', exitCode: 0, tool: 'terminal' });
    const claude = sessions.find((s) => s.id === '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01')!;
    expect(claude.tools).toEqual([expect.objectContaining({ tool: 'Task', reach: 'subagent', calls: 1 })]);
    for (const s of sessions) expect(s.failed).toEqual([]);
  });

  test('--agent, --kind, --since and --until', async () => {
    const codex = await activity([home, '--agent', 'codex']);
    expect(new Set(codex.map((s) => s.agent))).toEqual(new Set(['codex']));
    const onlyCommands = await activity([home, '--kind', 'commands']);
    expect(onlyCommands.every((s) => !s.files.length && !s.tools.length && !s.failed.length)).toBe(true);
    expect(onlyCommands.some((s) => s.commands.length)).toBe(true);
    const day = await activity([home, '--since', '2026-03-02', '--until', '2026-03-02']);
    const times = day.flatMap((s) => [...s.commands, ...s.files]).map((e) => e.time);
    expect(times.length).toBeGreaterThan(0);
    expect(times.every((t) => t?.startsWith('2026-03-02'))).toBe(true);
    for (const bad of [
      ['--kind', 'prompts'],
      ['--agent', 'no-such-agent'],
      ['--since', '2026-03-03', '--until', '2026-03-02'],
    ]) {
      const r = await cli(['activity', home, ...bad]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  test('the table at 80 columns: no line wider, every part titled', async () => {
    const r = await cli(['activity', home, '--color=false'], { columns: 80 });
    expect(r.code).toBe(0);
    // A path wider than the width is whole, alone on its line.
    expect(overWidth(r.stdout, 80)).toEqual([]);
    expect(r.stdout).toMatch(/^Commands \(\d+\)$/m);
    expect(r.stdout).toMatch(/^Files \(\d+\)$/m);
    expect(r.stdout).toMatch(/^Reaching outside \(\d+ calls?\)$/m);
    const narrow = await cli(['activity', home, '--color=false'], { columns: 40 });
    expect(overWidth(narrow.stdout, 40)).toEqual([]);
  });
});

describe.skipIf(!EXTERNAL)('the table of real files', () => {
  test('the Pi file at 80 columns: no line wider', async () => {
    const r = await cli(['activity', join(EXTERNAL!, 'pi'), '--color=false'], { columns: 80 });
    expect(r.code).toBe(0);
    expect(overWidth(r.stdout, 80)).toEqual([]);
    expect(r.stdout).toMatch(/^Failed, refused or never answered \(\d+\)$/m);
  });
});

describe('a command that exited non-zero', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sa-activity-exit-'));
    const from = join(CORPORA, 'codex', 'clean', 'sessions', '2026', '03', '02');
    const name = readdirSync(from).find((n) => n.includes('c001'))!;
    // The first command's output says it exited with code 2: a failed command, though no line marks it failed.
    const text = readFileSync(join(from, name), 'utf8').replace(
      'Process exited with code 0',
      'Process exited with code 2',
    );
    writeFileSync(join(dir, name), text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a web search the provider ran counts as reaching the web', async () => {
    const name = readdirSync(dir)[0]!;
    const search = {
      timestamp: '2026-03-02T09:03:00.000Z',
      type: 'response_item',
      payload: { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'u32 parse' } },
    };
    const copy = mkdtempSync(join(tmpdir(), 'sa-activity-web-'));
    try {
      writeFileSync(join(copy, name), `${readFileSync(join(dir, name), 'utf8')}${JSON.stringify(search)}\n`);
      const [s] = await activity([copy]);
      expect(s!.tools).toEqual([{ tool: 'web_search', reach: 'web', server: null, calls: 1, failed: 0 }]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test('is failed, with its exit code, and listed with the failed calls', async () => {
    const [s] = await activity([dir]);
    expect(s!.commands[0]).toMatchObject({ command: 'sed -n 1,80p src/lib.rs', status: 'failed', exitCode: 2 });
    expect(s!.failed).toEqual([
      expect.objectContaining({ tool: 'exec_command', status: 'failed', callId: 'call_read_lib' }),
    ]);
    expect(s!.failed[0]!.error).toMatch(/exited with code 2/);
  });
});

describe('a Grok web search the provider ran, in the conversation only', () => {
  test('counts as reaching the web', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'sa-activity-grok-'));
    try {
      cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), join(copy, 'sessions'), { recursive: true });
      const session = join(copy, 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f6b-8e40-7b11-8000-00000000a002');
      const chat = join(session, 'chat_history.jsonl');
      const item = { type: 'backend_tool_call', kind: { tool_type: 'web_search', id: 'ws_1' } };
      writeFileSync(chat, `${readFileSync(chat, 'utf8')}${JSON.stringify(item)}\n`);
      const sessions = await activity([session]);
      expect(sessions.map((s) => s.tools)).toEqual([
        [{ tool: 'web_search', reach: 'web', server: null, calls: 1, failed: 0 }],
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('a Claude Write whose result says it created the file', () => {
  test('is a create', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'sa-activity-create-'));
    try {
      const name = '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01.jsonl';
      const lines = readFileSync(join(CORPORA, 'claude', 'clean', 'projects', '-home-dev-app', name), 'utf8')
        .split('\n')
        .map((line) => {
          if (!line.includes('toolu_01EditParserAbcdef012345')) return line;
          const v = JSON.parse(line) as Obj;
          const m = v.message as { content: Obj[] };
          for (const b of m.content)
            if (b.type === 'tool_use') {
              b.name = 'Write';
              b.input = { file_path: '/home/dev/app/src/new.rs', content: 'fn main() {}\n' };
            }
          if (v.type === 'user') v.toolUseResult = { type: 'create', filePath: '/home/dev/app/src/new.rs' };
          return JSON.stringify(v);
        });
      writeFileSync(join(copy, name), lines.join('\n'));
      const [s] = await activity([join(copy, name)]);
      const write = s!.files.find((f) => f.tool === 'Write');
      expect(write).toMatchObject({ path: '/home/dev/app/src/new.rs', action: 'create', status: 'completed' });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('the table', () => {
  test('session text escaped; a command of several lines on one; a cwd of its own said', () => {
    const cmd = (command: string, cwd: string, line: number) => ({
      command,
      cwd,
      status: 'completed' as const,
      exitCode: 0,
      time: '2026-03-02T09:00:00.000Z',
      tool: 'bash',
      callId: `c${line}`,
      location: `s.jsonl:${line}`,
    });
    const text = activityTable(
      [
        {
          id: 's',
          agent: 'pi',
          path: '/x/s.jsonl',
          commands: [cmd('echo \u001b[31mred', '/w', 1), cmd('cat <<EOF\na\nEOF', '/w', 2), cmd('ls', '/elsewhere', 3)],
          files: [],
          tools: [],
          failed: [],
        },
      ],
      { width: 80, color: false, total: 1 },
    );
    expect(text).not.toContain('\u001b');
    expect(text).toContain('echo \\e[31mred');
    expect(text).toContain('cat <<EOF (+2 lines)');
    expect(text).toContain('commands run in /w');
    expect(text).toContain('in /elsewhere');
    expect(text).not.toContain('lines of');
  });
});

describe('CSV', () => {
  test('RFC 4180 quoting and the formula guard', () => {
    const s: SessionActivity = {
      id: 's1',
      agent: 'claude',
      path: '/tmp/s1.jsonl',
      commands: [
        {
          command: '=HYPERLINK("http://x","y"), echo "hi"\nls',
          cwd: '/w',
          status: 'failed',
          exitCode: 1,
          time: '2026-03-02T09:00:00.000Z',
          tool: 'Bash',
          callId: 'c1',
          location: 's1.jsonl:3',
        },
      ],
      files: [
        {
          path: '@evil.csv',
          action: 'write',
          status: 'completed',
          time: null,
          tool: 'Write',
          callId: 'c2',
          location: 's1.jsonl:4',
        },
      ],
      tools: [{ tool: 'WebFetch', reach: 'web', server: null, calls: 2, failed: 0 }],
      failed: [{ tool: 'Bash', status: 'failed', error: '-1 + 2', time: null, callId: 'c1', location: 's1.jsonl:5' }],
    };
    const csv = activityCsv([s]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'session,agent,entry,time,tool,status,exit_code,command,cwd,action,path,reach,server,calls,failed,error,' +
        'call_id,location,session_path',
    );
    expect(csv).toContain(`"'=HYPERLINK(""http://x"",""y""), echo ""hi""\nls"`);
    expect(csv).toContain(",'@evil.csv,");
    expect(csv).toContain(",'-1 + 2,");
    expect(csv).toContain('s1,claude,tool,,WebFetch,,,,,,,web,,2,0,,,,/tmp/s1.jsonl');
    expect(csv.endsWith('\r\n')).toBe(true);
  });
});

describe('each agent knows its tools', () => {
  const view = (agent: string, name: string, input: unknown) =>
    FORMATS.find((f) => f.name === agent)!.toolView(name, input);
  test.each([
    ['claude', 'Bash', { command: 'ls -la' }, { kind: 'shell', command: 'ls -la', mutating: true }],
    ['claude', 'WebFetch', { url: 'https://x.test' }, { kind: 'fetch', url: 'https://x.test', mutating: false }],
    ['claude', 'MultiEdit', { file_path: '/a.ts', edits: [] }, { kind: 'edit', path: '/a.ts', mutating: true }],
    ['claude', 'NotebookEdit', { notebook_path: '/n.ipynb' }, { kind: 'edit', path: '/n.ipynb' }],
    ['claude', 'mcp__gh__search_code', {}, { reach: 'mcp', server: 'gh' }],
    [
      'codex',
      'exec_command',
      '{"cmd":"cargo test","workdir":"/w"}',
      { kind: 'shell', command: 'cargo test', cwd: '/w' },
    ],
    ['codex', 'shell', { command: ['bash', '-lc', 'make all'], workdir: '/w' }, { command: 'make all', cwd: '/w' }],
    ['codex', 'shell', { command: ['git', 'commit', '-m', 'a b'] }, { command: "git commit -m 'a b'" }],
    ['pi', 'bash', { command: 'npm test' }, { kind: 'shell', command: 'npm test' }],
    ['pi', 'write', { path: 'a.md', content: '' }, { kind: 'write', path: 'a.md' }],
    ['grok', 'run_command', '{"command":"cargo test"}', { kind: 'shell', command: 'cargo test' }],
    ['grok', 'search_replace', '{"path":"src/a.rs"}', { kind: 'edit', path: 'src/a.rs' }],
    ['hermes', 'terminal', '{"command":"ls","workdir":"/srv"}', { kind: 'shell', command: 'ls', cwd: '/srv' }],
    ['hermes', 'write_file', '{"path":"/tmp/x"}', { kind: 'write', path: '/tmp/x' }],
    ['hermes', 'web_extract', '{"urls":["https://a.test"]}', { kind: 'fetch', reach: 'web', mutating: false }],
  ])('%s %s', (agent, name, input, want) => {
    expect(view(agent, name, input)).toMatchObject(want);
  });

  test('a Codex patch lists its files with what it does to each', () => {
    const patch =
      '*** Begin Patch\n*** Add File: new.rs\n+x\n*** Update File: src/lib.rs\n@@\n-a\n+b\n' +
      '*** Delete File: old.rs\n*** End Patch\n';
    expect(view('codex', 'apply_patch', patch).files).toEqual([
      { path: 'new.rs', action: 'create' },
      { path: 'src/lib.rs', action: 'patch' },
      { path: 'old.rs', action: 'delete' },
    ]);
    expect(view('codex', 'apply_patch', JSON.stringify({ input: patch })).files).toHaveLength(3);
  });
});
