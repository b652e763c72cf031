/**
 * `npm run bench:store`: the evidence store at scale. Generates a sessions root of N sessions (the bench's
 * generator), then measures with the built CLI: the first `archive` (wall and CPU time, against the capture alone,
 * `--no-index`; store size against source size), a re-run with nothing changed, a re-run with 1% of the sessions
 * grown by one line (time should follow the change, not the total; bytes stored should be about the appended
 * bytes), and `verify --store`. Prints one line per measure and writes reports/bench-store.json. Then the index:
 * the first `archive` again with the index read by this thread alone (SESSION_AUDIT_INDEX_WORKERS=0, bench:store
 * only), `archive --reindex` (time, index size) and a few searches (time per process). It never fails on speed;
 * it reports.
 *
 *   npm run bench:store                       # 10,000 sessions
 *   npm run bench:store -- --sessions 1000 --dir /var/tmp/sa-bench
 *
 * `npm run bench` runs the same measures (without `--reindex` and `verify --store`) on a root as large as its
 * largest sessions root, and reports them in reports/bench.json.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/formats/schema-runtime.js';
import { cleanGrokSession, writeManySessions } from './generate.js';

const root = packageRoot();
const bin = join(root, 'bin', 'session-audit.js');
const template = cleanGrokSession(root, '019a3f2c-1d00-7a3e-8000-00000000a001');

/** Bytes of the regular files under a directory, and the blocks they take on disk. */
function size(dir: string): { bytes: number; disk: number; files: number } {
  let bytes = 0;
  let disk = 0;
  let files = 0;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) {
        bytes += st.size;
        disk += st.blocks * 512;
        files++;
      }
    }
  };
  walk(dir);
  return { bytes, disk, files };
}

/** GNU time, for a child's CPU seconds (user + system, all its threads); without it only wall times are given. */
const TIME = '/usr/bin/time';

function run(
  argv: string[],
  env: Record<string, string> = {},
): { seconds: number; cpuSeconds?: number; stdout: string; code: number | null } {
  const cpuFile = join(tmpdir(), `sa-bench-cpu-${process.pid}`);
  const timed = existsSync(TIME);
  const cmd = timed ? TIME : process.execPath;
  const args = timed ? ['-f', '%U %S', '-o', cpuFile, process.execPath, bin, ...argv] : [bin, ...argv];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(' ')}: exit ${r.status}: ${r.stderr}`);
  let cpuSeconds: number | undefined;
  if (timed) {
    const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number);
    rmSync(cpuFile, { force: true });
    if (Number.isFinite(user) && Number.isFinite(sys)) cpuSeconds = user! + sys!;
  }
  return { seconds, ...(cpuSeconds !== undefined ? { cpuSeconds } : {}), stdout: r.stdout.trim(), code: r.status };
}

/** The CPU seconds of a run, when known. */
const cpu = (r: { cpuSeconds?: number }) => (r.cpuSeconds !== undefined ? { cpuSeconds: r.cpuSeconds } : {});

export interface StoreBenchOptions {
  sessions: number;
  dataDir: string;
  /** Also `archive --reindex` and `verify --store` (bench:store); `npm run bench` leaves them out. */
  full: boolean;
  log?: (line: string) => void;
}

/** The store's measures on a generated root of `sessions` sessions (see the header). */
export function benchStore({ sessions: n, dataDir, full, log = console.log }: StoreBenchOptions) {
  const sessionsRoot = join(dataDir, `store-root-${n}`);
  const store = join(dataDir, `store-${n}`);
  rmSync(sessionsRoot, { recursive: true, force: true });
  rmSync(store, { recursive: true, force: true });
  log(`generating a sessions root of ${n} sessions for the evidence store…`);
  writeManySessions(sessionsRoot, n, template);
  const source = size(sessionsRoot);

  // The capture alone (--no-index) into a store of its own, then the same with the index: the index's cost is the
  // difference (issue 29.5's target: at most the capture's own time, at most half its bytes).
  const bare = join(dataDir, `store-${n}-no-index`);
  rmSync(bare, { recursive: true, force: true });
  const captureOnly = run(['archive', sessionsRoot, '--store', bare, '--no-index']);
  const bareBytes = size(bare).bytes;
  rmSync(bare, { recursive: true, force: true });
  // The same with the index read in this thread alone (no worker threads): what the workers save.
  const oneThread = full
    ? run(['archive', sessionsRoot, '--store', bare], { SESSION_AUDIT_INDEX_WORKERS: '0' })
    : undefined;
  rmSync(bare, { recursive: true, force: true });
  // The index read by a worker beside this thread (asked for: by default there is none on a busy machine).
  const first = run(['archive', sessionsRoot, '--store', store], { SESSION_AUDIT_INDEX_WORKERS: '1' });
  const stored = size(store);
  // The store's size includes its index (derived data, rebuilt by --reindex): said apart.
  const firstIndexBytes = lstatSync(join(store, 'index.sqlite')).size;
  const objectBytes = size(join(store, 'objects')).bytes;
  const unchanged = run(['archive', sessionsRoot, '--store', store]);
  // 1% of the sessions grow by one line, as an agent at work appends.
  const groups = readdirSync(join(sessionsRoot, 'sessions')).sort();
  const all = groups.flatMap((g) =>
    readdirSync(join(sessionsRoot, 'sessions', g)).map((s) => join(sessionsRoot, 'sessions', g, s)),
  );
  const changed = all.filter((_, i) => i % 100 === 0);
  const line = '{"timestamp":1787199999,"method":"session/update","params":{"update":{"sessionUpdate":"bench"}}}\n';
  for (const s of changed) if (existsSync(join(s, 'updates.jsonl'))) appendFileSync(join(s, 'updates.jsonl'), line);
  const onePercent = run(['archive', sessionsRoot, '--store', store]);
  const afterBytes = size(store).bytes;
  const verify = full ? run(['verify', '--store', store]) : undefined;
  // The index: rebuilt from the store alone (bench:store only), and searched (a phrase every session holds, one
  // none holds, one in one kind; each run is a whole process, Node's start included).
  const reindex = full
    ? run(['archive', '--reindex', '--store', store], { SESSION_AUDIT_INDEX_WORKERS: '1' })
    : undefined;
  const indexBytes = lstatSync(join(store, 'index.sqlite')).size;
  // A query of 4,000 terms (an allow-list pasted in): its time must follow FTS5's, not grow in the tool.
  const many = Array.from({ length: 4000 }, (_, i) => `term${i}`).join(' OR ');
  const searches = [['"cargo test"'], ['zyxwvutsrq'], ['saturating_add', '--kind', 'model_text'], [many]].map((q) => {
    const r = run(['search', q[0]!, '--store', store, '--format', 'jsonl', '--limit', '0', ...q.slice(1)]);
    const query = q[0] === many ? '4000 terms OR-ed' : q.join(' ');
    return { query, seconds: r.seconds, hits: r.stdout ? r.stdout.split('\n').length : 0 };
  });
  const result = {
    machine: { cpus: cpus().length, node: process.version, note: 'a shared machine: figures are indicative' },
    sessions: n,
    source: { bytes: source.bytes, files: source.files, disk: source.disk },
    captureOnly: {
      seconds: captureOnly.seconds,
      ...cpu(captureOnly),
      storeBytes: bareBytes,
      summary: captureOnly.stdout,
    },
    ...(oneThread
      ? {
          firstArchiveOneThread: {
            seconds: oneThread.seconds,
            ...cpu(oneThread),
            indexSeconds: oneThread.seconds - captureOnly.seconds,
          },
        }
      : {}),
    firstArchive: {
      seconds: first.seconds,
      ...cpu(first),
      indexSeconds: first.seconds - captureOnly.seconds,
      ...(first.cpuSeconds !== undefined && captureOnly.cpuSeconds !== undefined
        ? { indexCpuSeconds: first.cpuSeconds - captureOnly.cpuSeconds }
        : {}),
      objectBytes,
      indexOverObjects: firstIndexBytes / objectBytes,
      storeBytes: stored.bytes,
      storeDisk: stored.disk,
      indexBytes: firstIndexBytes,
      summary: first.stdout,
    },
    unchangedRerun: { seconds: unchanged.seconds, summary: unchanged.stdout },
    onePercentRerun: {
      seconds: onePercent.seconds,
      changedSessions: changed.length,
      appendedBytes: changed.length * Buffer.byteLength(line),
      storeBytesAdded: afterBytes - stored.bytes,
      summary: onePercent.stdout,
    },
    ...(verify ? { verifyStore: { seconds: verify.seconds, summary: verify.stdout } } : {}),
    ...(reindex ? { reindex: { seconds: reindex.seconds, ...cpu(reindex), summary: reindex.stdout } } : {}),
    indexBytes,
    search: searches,
  };
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const result = benchStore({
    sessions: Number(opt('--sessions') ?? '10000'),
    dataDir: opt('--dir') ?? join(tmpdir(), 'session-audit-bench'),
    full: true,
  });
  for (const [k, v] of Object.entries(result)) console.log(`${k}: ${JSON.stringify(v)}`);
  writeFileSync(join(root, 'reports', 'bench-store.json'), `${JSON.stringify(result, null, 2)}\n`);
}
