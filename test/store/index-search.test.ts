/**
 * The store's index and `search`, as a reviewer relies on them: a planted command is found among many sessions with
 * the exact place in the stored capture, a rebuilt index answers exactly as the incremental one, a grown log adds
 * only its new lines, secrets never reach the index, and a bad query is one line.
 */
import Database from 'better-sqlite3';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { INDEX_VERSION } from '../../src/engine/index/schema.js';
import { objectPath } from '../../src/store/layout.js';
import { readVersion } from '../../src/store/objects.js';
import { openStore, readState } from '../../src/store/open.js';
import { writeManySessions } from '../../scripts/bench/generate.js';
import { cli } from '../helpers/cli.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const TEMPLATE = join(
  CORPORA,
  'grok',
  'clean',
  'sessions',
  '%2Fhome%2Fdev%2Fproj',
  '019a3f2c-1d00-7a3e-8000-00000000a001',
);
const work = mkdtempSync(join(tmpdir(), 'sa-index-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Sessions generated for the needle test (the bench's generator: copies of a real multi-record session). */
const MANY = 1000;
const PLANTED = 737;
const idOf = (i: number): string => {
  const hex = (n: number, w: number): string => n.toString(16).padStart(w, '0');
  return `019b${hex(i >>> 16, 4)}-${hex(i & 0xffff, 4)}-7000-8000-${hex(i, 12)}`;
};

interface Hit {
  session: string;
  kind: string;
  tool?: string;
  snippet: string;
  highlights: Array<[number, number]>;
  file: string;
  line: number;
  byte: number;
  capture: number;
  evidence: string;
}

/** Bytes of the regular files under a directory. */
function bytesUnder(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    n += st.isDirectory() ? bytesUnder(p) : st.isFile() ? st.size : 0;
  }
  return n;
}

const jsonl = (s: string): Hit[] =>
  s
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Hit);

describe('search across many sessions', () => {
  const root = join(work, 'many');
  const store = join(work, 'many-store');
  writeManySessions(root, MANY, TEMPLATE);
  const planted = join(root, 'sessions', `%2Fhome%2Fdev%2Fproj${PLANTED % 10}`, idOf(PLANTED), 'updates.jsonl');
  writeFileSync(
    planted,
    readFileSync(planted, 'utf8').replaceAll('cargo test adds_negative', 'terraform destroy -auto-approve'),
  );

  test(`a command planted in one of ${MANY} sessions is found there, and only there`, {
    timeout: 600_000,
  }, async () => {
    const a = await cli(['archive', root, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain(`${MANY} captures indexed`);
    const r = await cli(['search', '"terraform destroy"', '--store', store, '--format', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    const hits = jsonl(r.stdout);
    expect(new Set(hits.map((h) => h.session))).toEqual(new Set([idOf(PLANTED)]));
    const marked = (h: Hit): string =>
      h.highlights.reduceRight((t, [a, b]) => `${t.slice(0, a)}«${t.slice(a, b)}»${t.slice(b)}`, h.snippet);
    expect(hits.some((h) => h.kind === 'tool_call' && marked(h).includes('«terraform destroy» -auto-approve'))).toBe(
      true,
    );
  });

  test('the index is at most half the bytes of the stored pieces, built beside the live one, of this version', () => {
    const index = statSync(join(store, 'index.sqlite')).size;
    expect(index / bytesUnder(join(store, 'objects'))).toBeLessThanOrEqual(0.5);
    expect(readdirSync(join(store, 'tmp'))).toEqual([]);
    const db = new Database(join(store, 'index.sqlite'), { readonly: true });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(INDEX_VERSION);
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    } finally {
      db.close();
    }
  });

  test('each hit names the line and byte offset where the stored capture holds it', async () => {
    const r = await cli(['search', '"terraform destroy"', '--store', store, '--format', 'jsonl']);
    const records = readState(openStore(store, false)).records;
    for (const h of jsonl(r.stdout)) {
      const rec = records.find((x) => x.seq === h.capture)!;
      const file = rec.files.find((f) => f.path === h.file)!;
      const bytes = readVersion(store, file.pieces!, 1 << 30)!;
      const before = bytes.subarray(0, h.byte);
      expect(before.length === 0 || before[before.length - 1] === 0x0a).toBe(true);
      expect(before.toString('latin1').split('\n').length).toBe(h.line);
      const end = bytes.indexOf(0x0a, h.byte);
      expect(bytes.subarray(h.byte, end).toString('utf8')).toContain('terraform destroy');
      expect(h.evidence).toBe(`${h.file}:${h.line} @${h.byte} in capture ${h.capture}`);
    }
  });

  test('filters narrow the hits: --kind, --tool, --mutating, --agent, --session', async () => {
    const q = async (...extra: string[]): Promise<Hit[]> =>
      jsonl((await cli(['search', '"terraform destroy"', '--store', store, '--format', 'jsonl', ...extra])).stdout);
    const all = await q();
    const calls = await q('--kind', 'tool_call');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((h) => h.kind === 'tool_call')).toBe(true);
    expect(calls).toEqual(all);
    expect(await q('--kind', 'model_text,user_prompt')).toEqual([]);
    expect((await q('--mutating')).length).toBeGreaterThan(0);
    expect(await q('--tool', 'no such tool')).toEqual([]);
    expect(await q('--agent', 'claude')).toEqual([]);
    expect(await q('--session', idOf(1))).toEqual([]);
    expect((await q('--session', idOf(PLANTED))).length).toBe(all.length);
    expect(await q('--until', '2000-01-01T00:00:00Z')).toEqual([]);
  });

  test.each([80, 120, 200])('the table output fits %i columns, each hit with its whole evidence place', async (w) => {
    const r = await cli(['search', '"terraform destroy"', '--store', store], { columns: w });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.length > w)).toEqual([]);
    expect(r.stdout).toMatch(/\S+\.jsonl:\d+/);
    expect(r.stdout).toMatch(/@\d+ in capture \d+/);
  });

  test('no hit: exit 1 and one line', async () => {
    const r = await cli(['search', 'zyxwvutsrq', '--store', store]);
    expect([r.code, r.stdout, r.stderr]).toEqual([1, 'no hit for zyxwvutsrq\n', '']);
  });

  test('a query FTS5 rejects is one clear line, exit 2, never a stack trace', async () => {
    const r = await cli(['search', 'destroy AND (', '--store', store]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^session-audit: search: the query "destroy AND \(" is not valid FTS5 \(.*\); /);
    expect(r.stderr).toMatch(/; text with punctuation goes in double quotes: '"destroy AND \("'\n$/);
    expect(r.stderr.split('\n')).toHaveLength(2);
  });
});

describe('incremental index and reindex', () => {
  const root = join(work, 'small');
  const store = join(work, 'small-store');
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), join(root, 'grok'), { recursive: true });
  cpSync(join(CORPORA, 'claude', 'clean', 'projects'), join(root, 'claude'), { recursive: true });
  const log = join(root, 'grok', '%2Fhome%2Fdev%2Fproj', '019a3f2e-0f10-7c42-8000-00000000a003', 'updates.jsonl');
  const TOKEN = `ghp_${'Gh1'.repeat(12)}`;

  const tables = (): string => {
    const db = new Database(join(store, 'index.sqlite'), { readonly: true });
    try {
      // Every table, the digested ones with their paths and kinds spelled out (the views).
      const order: Record<string, string> = {
        sessions: 'sid',
        captures: 'seq',
        paths: 'id',
        kinds: 'id',
        file_rows: 'capture, path',
        event_rows: 'id',
        tool_call_rows: 'id',
        finding_rows: 'id',
      };
      return JSON.stringify(
        Object.entries(order).map(([t, by]) => db.prepare(`SELECT * FROM ${t} ORDER BY ${by}`).all()),
      );
    } finally {
      db.close();
    }
  };
  const queries = async (): Promise<string[]> =>
    Promise.all(
      [['saturating_add'], ['rebase', '--kind', 'user_prompt'], ['grep OR read*', '--mutating'], ['plant*']].map(
        async ([q, ...rest]) => (await cli(['search', q!, '--store', store, '--format', 'json', ...rest])).stdout,
      ),
    );

  test('a grown log adds only its new lines, from the capture that first holds them', async () => {
    expect((await cli(['archive', root, '--store', store])).code).toBe(0);
    const line = readFileSync(log, 'utf8').split('\n')[0]!;
    const prompt = line.replace(/"text":"[^"]*"/, `"text":"planted follow-up prompt, token ${TOKEN}"`);
    appendFileSync(log, `${prompt}\n`);
    const a = await cli(['archive', root, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('1 capture indexed');
    const db = new Database(join(store, 'index.sqlite'), { readonly: true });
    const last = db.prepare('SELECT seq, events FROM captures ORDER BY seq DESC LIMIT 1').get() as {
      seq: number;
      events: number;
    };
    db.close();
    expect(last.events).toBe(1);
    const r = await cli(['search', 'planted', '--store', store, '--format', 'jsonl']);
    const hits = jsonl(r.stdout);
    expect(hits.map((h) => [h.kind, h.capture])).toEqual([['user_prompt', last.seq]]);
  });

  test('a capture audited alone does not report its subagent’s own session missing (the live audit does not)', () => {
    const db = new Database(join(store, 'index.sqlite'), { readonly: true });
    const codes = db.prepare('SELECT DISTINCT code FROM findings ORDER BY code').all() as Array<{ code: string }>;
    db.close();
    expect(codes.map((c) => c.code)).not.toContain('XREF_SUBAGENT');
  });

  test('a secret the detectors find never reaches the index nor a snippet', async () => {
    const r = await cli(['search', 'planted', '--store', store, '--format', 'jsonl']);
    expect(r.stdout).toContain('[REDACTED:');
    expect(r.stdout).not.toContain(TOKEN);
    expect(readFileSync(join(store, 'index.sqlite')).includes(TOKEN)).toBe(false);
  });

  test('a session the agent deleted is still found, and its hits say it is gone from the source', async () => {
    rmSync(join(root, 'claude', '-home-dev-app'), { recursive: true });
    const a = await cli(['archive', root, '--store', store]);
    expect(a.stdout).toMatch(/ 2 deleted, .*; 2 captures indexed\n$/);
    const hits = jsonl((await cli(['search', 'clippy', '--store', store, '--format', 'jsonl'])).stdout);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => (h as Hit & { deleted: boolean }).deleted)).toBe(true);
    const table = await cli(['search', 'clippy', '--store', store, '--limit', '1'], { columns: 140 });
    expect(table.stdout).toContain('\n(deleted from its source)');
  });

  test('--tool, --code and --since narrow the hits to what they name', async () => {
    const q = async (query: string, ...extra: string[]): Promise<Hit[]> =>
      jsonl((await cli(['search', query, '--store', store, '--format', 'jsonl', ...extra])).stdout);
    const bash = await q('cargo', '--tool', 'Bash');
    expect(bash.length).toBeGreaterThan(0);
    expect(bash.every((h) => h.tool === 'Bash')).toBe(true);
    const all = await q('saturating_add');
    const secretSessions = await q('saturating_add', '--code', 'SECRET_IN_SESSION');
    expect(new Set(all.map((h) => h.session)).size).toBeGreaterThan(1);
    expect(new Set(secretSessions.map((h) => h.session))).toEqual(new Set(['019a3f2e-0f10-7c42-8000-00000000a003']));
    const cargo = await q('cargo');
    const late = await q('cargo', '--since', '2026-08-01T00:00:00Z');
    expect(late.length).toBeGreaterThan(0);
    expect(late.length).toBeLessThan(cargo.length);
    expect(late.every((h) => (h as Hit & { time: string }).time >= '2026-08-01')).toBe(true);
    // Both bounds hold the event at that very time, as timeline's do: a time copied from a hit keeps that hit.
    const one = late[0] as Hit & { time: string };
    const at = (h: Hit): string => `${h.file}:${h.line}@${h.byte}`;
    expect((await q('cargo', '--until', one.time)).map(at)).toContain(at(one));
    expect((await q('cargo', '--since', one.time, '--until', one.time)).map(at)).toContain(at(one));
  });

  test('too narrow for the columns: one block per hit, what it is under its session, never at the margin', async () => {
    const r = await cli(['search', 'cargo', '--store', store, '--tool', 'Bash', '--limit', '2'], { columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const blocks = r.stdout
      .replace(/\(more hits[^\n]*\n$/, '')
      .trimEnd()
      .split('\n\n');
    expect(blocks).toHaveLength(2);
    for (const b of blocks) {
      const [head, what, where] = b.split('\n');
      // The session and its time, then the kind and the tool indented under them, then the evidence place.
      expect(head).toMatch(/^[0-9a-f-]{36} {2}\d{4}-\d\d-\d\dT[\d:.]+Z$/);
      expect(what).toMatch(/^ {2}tool_call {2}Bash\b/);
      expect(where).toMatch(/^ {2}\S+\.jsonl:\d+ @\d+ in capture \d+$/);
      expect(
        b
          .split('\n')
          .slice(1)
          .every((l) => l.startsWith('  ')),
      ).toBe(true);
    }
  });

  test('a hit the agent later rewound says so', async () => {
    const r = await cli(['search', 'checked_add', '--store', store, '--kind', 'user_prompt'], { columns: 120 });
    expect(r.stdout).toMatch(/user_prompt +Rename add to «checked_add»/);
    expect(r.stdout).toMatch(/\n2026-08-19T09:30:43\.420Z +\(rewound\)/);
    const hits = jsonl(
      (await cli(['search', 'checked_add', '--store', store, '--kind', 'user_prompt', '--format', 'jsonl'])).stdout,
    );
    expect(hits.map((h) => (h as Hit & { rewound: boolean }).rewound)).toContain(true);
  });

  test('archive --reindex rebuilds the same rows and the same answers, byte for byte', async () => {
    const before = { rows: tables(), answers: await queries() };
    expect(before.answers.join('')).toContain('saturating_add');
    const r = await cli(['archive', '--reindex', '--store', store]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^archive --reindex .*: index rebuilt from \d+ captures: \d+ events/);
    expect({ rows: tables(), answers: await queries() }).toEqual(before);
  });

  test('a store without an index: one line, exit 2', async () => {
    rmSync(join(store, 'index.sqlite'));
    const r = await cli(['search', 'grep', '--store', store]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `session-audit: --store ${store}: the store has no index yet; run archive (or archive --reindex) on it\n`,
    ]);
  });
});

describe('a capture that cannot be read back', () => {
  const root = join(work, 'damaged');
  const store = join(work, 'damaged-store');
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), root, { recursive: true });

  test('is listed with its reason, counted in a warning, and the other captures are indexed', async () => {
    expect((await cli(['archive', root, '--store', store])).code).toBe(0);
    const records = readState(openStore(store, false)).records;
    const rec = records.find((r) => r.session.id === '019a3f2e-0f10-7c42-8000-00000000a003')!;
    const object = objectPath(openStore(store, false), rec.files.find((f) => f.path === 'updates.jsonl')!.pieces![0]!);
    chmodSync(object, 0o644);
    const bytes = readFileSync(object);
    bytes[10] = bytes[10]! ^ 1;
    writeFileSync(object, bytes);
    const r = await cli(['archive', '--reindex', '--store', store]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/; 1 not indexed \(see captures\.not_indexed\)\n$/);
    const db = new Database(join(store, 'index.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT seq, events, not_indexed FROM captures ORDER BY seq').all() as Array<{
      seq: number;
      events: number;
      not_indexed: string | null;
    }>;
    db.close();
    const bad = rows.find((x) => x.seq === rec.seq)!;
    expect(bad.events).toBe(0);
    expect(bad.not_indexed).toMatch(
      /^not indexed: updates\.jsonl of capture \d+: a stored piece does not hash to its name/,
    );
    expect(rows.filter((x) => x.seq !== rec.seq && x.not_indexed === null).every((x) => x.events > 0)).toBe(true);
  });
});

describe('an index that is not a database any more', () => {
  const root = join(work, 'garbage');
  const store = join(work, 'garbage-store');
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), root, { recursive: true });

  test('search says so in one line; the next archive makes it again from the store', async () => {
    expect((await cli(['archive', root, '--store', store])).code).toBe(0);
    writeFileSync(join(store, 'index.sqlite'), 'not a database\n');
    const r = await cli(['search', 'grep', '--store', store]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `session-audit: --store ${store}: the index cannot be read (file is not a database); run archive --reindex\n`,
    ]);
    const a = await cli(['archive', root, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('0 capture records; 4 captures indexed');
    expect((await cli(['search', 'grep', '--store', store])).code).toBe(0);
  });
});
