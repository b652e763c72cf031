/**
 * The index read in worker threads (engine/parallel/index-facts.ts) is the same rows as the index read in one
 * thread: every table, row for row, on every agent's corpora and a damaged store (a capture whose piece is gone
 * is listed in captures.not_indexed either way). A worker that dies is not waited for: the captures it held are
 * read in the main thread and the index is the same again. Needs the built worker (dist/).
 */
import Database from 'better-sqlite3';
import { copyFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { updateIndex } from '../../src/engine/index/update.js';
import { poolStats } from '../../src/engine/parallel/index-facts.js';
import { objectPath } from '../../src/store/layout.js';
import { openStore, readState } from '../../src/store/open.js';
import { isBuilt } from '../helpers/built.js';
import { cli } from '../helpers/cli.js';
import { INDEX_ROOTS } from '../helpers/index-roots.js';

const BUILT = isBuilt('src/engine/parallel/index-worker.js');
const work = mkdtempSync(join(tmpdir(), 'sa-index-workers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROOTS = INDEX_ROOTS;

const ENV = ['SESSION_AUDIT_INDEX_WORKERS', 'SESSION_AUDIT_INDEX_WORKER_FAULT', 'SESSION_AUDIT_INDEX_STALL_MS'];
afterEach(() => {
  for (const k of ENV) delete process.env[k];
});

/** Every row of every table of an index (the FTS index's own tables too), in rowid or key order. */
function dump(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{
      name: string;
      sql: string;
    }>;
    const out: Record<string, unknown[]> = {};
    // A table without rowids is read in the order of its key.
    for (const { name, sql } of tables)
      out[name] = db
        .prepare(`SELECT * FROM "${name}"${/WITHOUT ROWID/i.test(sql) ? '' : ' ORDER BY rowid'}`)
        .raw()
        .all();
    out.user_version = [db.pragma('user_version', { simple: true })];
    return out;
  } finally {
    db.close();
  }
}

/** The store's index rebuilt with `workers` worker threads (0: this thread alone), as its rows. */
function rebuilt(store: string, workers: number, name: string, env: Record<string, string> = {}) {
  process.env.SESSION_AUDIT_INDEX_WORKERS = String(workers);
  Object.assign(process.env, env);
  const out = updateIndex(store, { reindex: true });
  const stats = { ...poolStats };
  copyFileSync(join(store, 'index.sqlite'), join(work, `${name}.sqlite`));
  return { out, stats, rows: dump(join(work, `${name}.sqlite`)) };
}

describe.skipIf(!BUILT)('the index read by workers is the index read by one thread', () => {
  const store = join(work, 'store');

  test('the corpora are archived', { timeout: 120_000 }, async () => {
    const a = await cli(['archive', ...ROOTS, '--store', store, '--no-index']);
    expect(a.code, a.stderr).toBe(0);
    // Enough captures for the workers to have several each, some of them while others are still being inserted.
    expect(readState(openStore(store, false)).records.length).toBeGreaterThan(8);
  });

  test('every table, row for row, with 1 and 2 workers', { timeout: 120_000 }, () => {
    const one = rebuilt(store, 0, 'one');
    expect(one.out.events).toBeGreaterThan(100);
    for (const workers of [1, 2]) {
      const many = rebuilt(store, workers, `w${workers}`);
      expect(many.out).toEqual(one.out);
      // Most captures were read by the workers (this thread reads a share of them itself).
      expect(many.stats.byWorkers, JSON.stringify(many.stats)).toBeGreaterThan(many.stats.here);
      expect(many.stats.lost).toBe(0);
      for (const [table, rows] of Object.entries(one.rows)) expect(many.rows[table], table).toEqual(rows);
    }
  });

  test('a capture whose piece is gone or altered is not indexed, the same way', { timeout: 120_000 }, () => {
    const damaged = join(work, 'damaged');
    cpSync(store, damaged, { recursive: true });
    const recs = readState(openStore(damaged, false)).records.filter((r) => r.files.some((f) => f.pieces?.length));
    const piece = (k: number) => recs[k]!.files.find((f) => f.pieces?.length)!.pieces![0]!;
    rmSync(objectPath(damaged, piece(0)));
    writeFileSync(objectPath(damaged, piece(recs.length >> 1)), 'not the bytes');
    const one = rebuilt(damaged, 0, 'd-one');
    expect(one.out.notIndexed).toBeGreaterThan(0);
    const many = rebuilt(damaged, 2, 'd-many');
    expect(many.out).toEqual(one.out);
    expect(many.stats.byWorkers).toBeGreaterThan(0);
    for (const [table, rows] of Object.entries(one.rows)) expect(many.rows[table], table).toEqual(rows);
  });

  test('a worker that dies is not waited for: the same rows, read here', { timeout: 120_000 }, () => {
    const one = rebuilt(store, 0, 'f-one');
    const t0 = Date.now();
    const dead = rebuilt(store, 2, 'f-dead', { SESSION_AUDIT_INDEX_WORKER_FAULT: 'exit' });
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(dead.out).toEqual(one.out);
    expect(dead.stats).toMatchObject({ byWorkers: 0, lost: 2 });
    for (const [table, rows] of Object.entries(one.rows)) expect(dead.rows[table], table).toEqual(rows);
  });

  test('a worker that never answers is given up after the stall time: the same rows', { timeout: 120_000 }, () => {
    const one = rebuilt(store, 0, 'h-one');
    const hung = rebuilt(store, 1, 'h-hung', {
      SESSION_AUDIT_INDEX_WORKER_FAULT: 'hang',
      SESSION_AUDIT_INDEX_STALL_MS: '500',
    });
    expect(hung.out).toEqual(one.out);
    expect(hung.stats).toMatchObject({ byWorkers: 0, lost: 1 });
    for (const [table, rows] of Object.entries(one.rows)) expect(hung.rows[table], table).toEqual(rows);
  });
});
