/**
 * `npm run bench:hermes-db`: a Hermes home whose state.db holds N message rows (3,000,000 by default, about
 * 1.4 GB), audited by the built CLI under /usr/bin/time: wall time and peak RSS of `audit` and of `timeline`. The
 * database is written once with SQLite itself (schema v16, WAL mode, checkpointed) and kept for the next run.
 * It never fails on speed; it reports.
 *
 *   npm run bench:hermes-db
 *   npm run bench:hermes-db -- --rows 300000 --dir /var/tmp/sa-bench-hermes
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { packageRoot } from '../../src/formats/schema-runtime.js';
import { SCHEMA } from '../corpora/hermes-builder.js';

const ROWS_PER_SESSION = 1000;
const T0 = 1_780_000_000;

/** Content of about `n` characters, varied by `i` (so pages do not compress to nothing). */
const text = (i: number, n: number): string => `row ${i}: `.padEnd(n, 'lorem ipsum dolor sit amet ');

/**
 * Write a home at `dir` with `rows` message rows in sessions of ROWS_PER_SESSION (user, assistant with one call,
 * tool result, assistant reply). Returns the database's size.
 */
export function writeHermesHome(dir: string, rows: number): number {
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), 'model:\n  default: anthropic/claude-opus-4.6\n');
  const path = join(dir, 'state.db');
  rmSync(path, { force: true });
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    for (const stmt of SCHEMA.split(';\n')) if (stmt.trim() && !/VIRTUAL TABLE/.test(stmt)) db.exec(stmt);
    db.prepare('INSERT INTO schema_version (version) VALUES (16)').run();
    const addSession = db.prepare(
      'INSERT INTO sessions (id, source, model, model_config, started_at, ended_at, end_reason, message_count, ' +
        "tool_call_count) VALUES (?, 'cli', 'anthropic/claude-opus-4.6', '{}', ?, ?, 'user_exit', ?, ?)",
    );
    const addMessage = db.prepare(
      'INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const sessions = Math.ceil(rows / ROWS_PER_SESSION);
    let i = 0;
    for (let s = 0; s < sessions; s++) {
      const id = `20260601_${String(s).padStart(6, '0')}_bench`;
      const n = Math.min(ROWS_PER_SESSION, rows - i);
      db.transaction(() => {
        const start = T0 + s * 3600;
        addSession.run(id, start, start + n, n, Math.floor(n / 4));
        for (let k = 0; k < n; k++, i++) {
          const call = `call_${s}_${k - (k % 4)}`;
          const ts = start + k;
          const role = ['user', 'assistant', 'tool', 'assistant'][k % 4]!;
          const calls =
            k % 4 === 1
              ? JSON.stringify([{ id: call, type: 'function', function: { name: 'terminal', arguments: '{}' } }])
              : null;
          addMessage.run(id, role, text(i, 380), role === 'tool' ? call : null, calls, ts);
        }
      })();
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return statSync(path).size;
}

function measure(label: string, args: string[]): void {
  const bin = join(packageRoot(), 'bin', 'session-audit.js');
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, bin, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const last = r.stderr.trim().split('\n').at(-1) ?? '';
  const [secs, kb] = last.split(' ');
  console.log(`${label}: exit ${r.status}, ${secs} s, peak RSS ${Math.round(Number(kb) / 1024)} MB`);
  if (r.status !== 0 && r.status !== 1) console.log(r.stderr.slice(0, 2000));
}

function main(argv: string[]): void {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const rows = Number(arg('rows') ?? 3_000_000);
  const dir = arg('dir') ?? join(tmpdir(), `sa-bench-hermes-${rows}`);
  const home = join(dir, 'home');
  const marker = join(dir, 'done');
  if (!existsSync(marker)) {
    const t = Date.now();
    const bytes = writeHermesHome(home, rows);
    writeFileSync(marker, `${bytes}\n`);
    console.log(`wrote ${rows} rows (${bytes} bytes) in ${((Date.now() - t) / 1000).toFixed(1)} s: ${home}`);
  } else console.log(`reusing ${home} (${statSync(join(home, 'state.db')).size} bytes)`);
  measure('audit', ['audit', home, '--format', 'json']);
  measure('timeline', ['timeline', home, '--format', 'jsonl']);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2));
