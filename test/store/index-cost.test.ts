/**
 * The index's cost (issue 29.5; its size against the stored pieces is in index-search.test.ts, on 1,000 sessions):
 * each log of a capture is parsed once however many of the index's passes read it (the audit, the timeline's two),
 * and the timeline it indexes is the one a fresh read gives, for every agent's corpora. What the smaller rows lean on
 * (paths and kinds by number, each capture's events in one run of ids, an event's flags in its digest) is checked
 * by `verify --store` as strictly as the rows themselves.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { runStoreVerify } from '../../src/engine/archive.js';
import { auditSession } from '../../src/engine/audit-session.js';
import { capturedAs, captureFacts } from '../../src/engine/index/extract.js';
import { parsedOnce } from '../../src/engine/index/parse-once.js';
import { INDEX_VERSION } from '../../src/engine/index/schema.js';
import { buildTimeline } from '../../src/engine/timeline.js';
import { formatOf } from '../../src/formats/registry.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../src/model/records.js';
import { JsonlScanner } from '../../src/read/jsonl.js';
import { openStore, readState } from '../../src/store/open.js';
import { storeSource } from '../../src/store/store-source.js';
import type { TimelineEvent } from '../../src/timeline/model.js';
import { cli } from '../helpers/cli.js';
import { INDEX_ROOTS } from '../helpers/index-roots.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-index-cost-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROOTS = INDEX_ROOTS;

describe('one parse of each log', () => {
  const store = join(work, 'corpora-store');

  test('the corpora are archived without an index', { timeout: 120_000 }, async () => {
    const a = await cli(['archive', ...ROOTS, '--store', store, '--no-index']);
    expect(a.code, a.stderr).toBe(0);
  });

  const captures = () =>
    readState(openStore(store, false)).records.filter((r) => r.status !== 'deleted' && r.session.format !== '');

  test('indexing a capture parses its logs no more often than auditing it alone does', () => {
    const scans = vi.spyOn(JsonlScanner.prototype, 'end');
    try {
      for (const rec of captures()) {
        scans.mockClear();
        const found = capturedAs(rec);
        auditSession(storeSource(store, rec, found), formatOf(found), { command: 'audit' });
        const audit = scans.mock.calls.length;
        scans.mockClear();
        captureFacts(store, rec, () => {});
        expect(scans.mock.calls.length, `${rec.session.format} ${rec.session.display}`).toBe(audit);
      }
    } finally {
      scans.mockRestore();
    }
  });

  test('the timeline given the audit’s parse is the one a fresh read gives, for every agent', () => {
    const formats = new Set<string>();
    for (const rec of captures()) {
      const found = capturedAs(rec);
      const format = formatOf(found);
      const limits = { limits: { maxLineBytes: DEFAULT_MAX_LINE_BYTES } };
      const fresh: TimelineEvent[] = [];
      buildTimeline({ source: storeSource(store, rec, found), format }, limits, (e) => fresh.push(e));
      const once = parsedOnce(storeSource(store, rec, found));
      auditSession(once, format, { command: 'audit' });
      const given: TimelineEvent[] = [];
      buildTimeline({ source: once, format }, limits, (e) => given.push(e));
      expect(given, `${rec.session.format} ${rec.session.display}`).toEqual(fresh);
      expect(Math.max(0, ...once.parses.values())).toBeLessThanOrEqual(1);
      if (fresh.length) formats.add(format.name);
    }
    expect([...formats].sort()).toEqual(['claude', 'codex', 'grok', 'hermes', 'pi']);
  });
});

describe('what the smaller rows lean on is verified', () => {
  const root = join(CORPORA, 'grok', 'clean', 'sessions');
  let n = 0;
  const fresh = async (): Promise<string> => {
    const store = join(work, `edit-${n++}`);
    expect((await cli(['archive', root, '--store', store])).code).toBe(0);
    expect(codes(store)).toEqual([]);
    return store;
  };
  const codes = (store: string): string[] =>
    runStoreVerify(store, undefined).report.findings.map((f) => `${f.code} ${f.location.file}`);
  const edit = (store: string, sql: string): void => {
    const db = new Database(join(store, 'index.sqlite'));
    try {
      expect(db.prepare(sql).run().changes).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  };

  test.each([
    [
      'a path renamed',
      "UPDATE paths SET path = 'elsewhere.jsonl' WHERE id = (SELECT file FROM events LIMIT 1)",
      'index.sqlite: events',
    ],
    ['a kind renamed', "UPDATE kinds SET kind = 'user_prompt' WHERE kind = 'model_text'", 'index.sqlite: events'],
    ['an event pointed at another path', 'UPDATE events SET file = file + 1 WHERE id = 3', 'index.sqlite: events'],
    [
      'an event marked rewound',
      'UPDATE events SET flags = (flags | 1) - (flags & 1) WHERE id = 2',
      'index.sqlite: events',
    ],
    [
      'a capture said to hold one event more',
      'UPDATE captures SET events = events + 1 WHERE seq = (SELECT min(seq) FROM captures WHERE events > 0)',
      'index.sqlite: captures',
    ],
    [
      'a capture’s first event moved',
      'UPDATE captures SET first_event = first_event + 1 WHERE events > 1',
      'index.sqlite: captures',
    ],
    ['a file’s hash edited', "UPDATE files SET sha256 = x'00' WHERE sha256 IS NOT NULL", 'index.sqlite: files'],
  ])('%s: STORE_INDEX_MISMATCH, and --reindex makes it right', async (_, sql, where) => {
    const store = await fresh();
    edit(store, sql);
    expect(codes(store)).toContain(`STORE_INDEX_MISMATCH ${where}`);
    expect((await cli(['archive', '--reindex', '--store', store])).code).toBe(0);
    expect(codes(store)).toEqual([]);
  });

  test('an index of the previous version is rebuilt by the next archive, never read', async () => {
    const store = await fresh();
    const db = new Database(join(store, 'index.sqlite'));
    db.pragma(`user_version = ${INDEX_VERSION - 1}`);
    db.close();
    const r = await cli(['search', 'cargo', '--store', store]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `session-audit: --store ${store}: the index is of version ${INDEX_VERSION - 1}, this session-audit reads ` +
        `${INDEX_VERSION}; run archive --reindex\n`,
    ]);
    expect((await cli(['archive', root, '--store', store])).code).toBe(0);
    expect((await cli(['search', 'cargo', '--store', store])).code).toBe(0);
    expect(codes(store)).toEqual([]);
  });
});
