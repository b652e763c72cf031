/**
 * The store corpora: evidence stores made by `session-audit archive` from the clean Codex corpus, then damaged the
 * way a store gets damaged or tampered with (records cut from the end of the chain, the chain emptied, an object no
 * record names, an index row edited, a directory others may write). Each case is checked by `verify --store` against
 * its expected.json. The records name the machine's paths and times, so they are machine-bound like a bag's tags.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runArchive } from '../../src/engine/archive.js';
import { capturesDir, headFile, objectPath } from '../../src/store/layout.js';
import { sha256 } from '../../src/store/record.js';
import type { Setup } from './case-kit.js';

export interface StoreCase {
  name: string;
  description: string;
  must: string[];
  allow?: string[];
  /** Steps the test applies to a scratch copy first (modes git cannot store). */
  setup?: Setup[];
  at?: Array<{ code: string; file: string; severity?: 'error' | 'warning' | 'note' }>;
  /** Keep index.sqlite (binary, and machine-bound): only where the case is about the index. */
  index?: boolean;
  damage?: (store: string) => void;
}

const PLANTED = Buffer.from('bytes no capture record names\n');

const CASES: StoreCase[] = [
  {
    name: 'clean',
    description: 'A store archived from the clean Codex corpus, untouched: verify --store finds nothing.',
    must: [],
  },
  {
    name: 'gap',
    description:
      'The last capture record deleted after the run (head.json still names it): the chain was cut at its end, ' +
      'an error until a person acknowledges the gap with archive --acknowledge-gap; the bytes only that record ' +
      'named are left as an orphan object.',
    must: ['STORE_GAP', 'STORE_ORPHAN_OBJECT'],
    at: [{ code: 'STORE_GAP', file: 'head.json', severity: 'error' }],
    damage: (store) => {
      const day = join(capturesDir(store), '000000');
      const last = readdirSync(day).sort().pop()!;
      unlinkSync(join(day, last));
    },
  },
  {
    name: 'emptied',
    description:
      'Every capture record and the head removed, the objects left: a store that proves nothing, and stored ' +
      'bytes no record names.',
    must: ['STORE_EMPTY', 'STORE_ORPHAN_OBJECT'],
    at: [{ code: 'STORE_EMPTY', file: 'captures', severity: 'warning' }],
    damage: (store) => {
      rmSync(capturesDir(store), { recursive: true });
      rmSync(headFile(store));
    },
  },
  {
    name: 'orphan-object',
    description: 'An object planted in objects/ under its own hash, named by no capture record: a note.',
    must: ['STORE_ORPHAN_OBJECT'],
    at: [{ code: 'STORE_ORPHAN_OBJECT', file: objectPath('', sha256(PLANTED)), severity: 'note' }],
    damage: (store) => {
      const path = objectPath(store, sha256(PLANTED));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, PLANTED);
    },
  },
  {
    name: 'unprotected',
    description:
      'objects/ writable by everyone (applied by the test: git keeps no such mode): others than its owner could ' +
      'have rewritten the store.',
    must: ['STORE_UNPROTECTED'],
    setup: [{ chmod: 'store/objects', mode: '777' }],
    at: [{ code: 'STORE_UNPROTECTED', file: '.', severity: 'warning' }],
  },
  {
    name: 'index-edited',
    description:
      'A row of the search index edited with sqlite3 after the run: the index no longer says what the records ' +
      'hold, so search could lie; verify --store says so.',
    must: ['STORE_INDEX_MISMATCH'],
    index: true,
    at: [{ code: 'STORE_INDEX_MISMATCH', file: 'index.sqlite: events', severity: 'warning' }],
    damage: (store) => {
      const db = new Database(join(store, 'index.sqlite'));
      db.prepare("UPDATE events SET text = 'terraform destroy' WHERE id = 2").run();
      db.close();
    },
  },
];

/** Writes stores/<case>/store for every case; returns the cases with their directories. */
export function generateStores(outDir: string, codexClean: string): Array<StoreCase & { dir: string }> {
  rmSync(join(outDir, 'stores'), { recursive: true, force: true });
  const scratch = mkdtempSync(join(tmpdir(), 'sa-store-corpora-'));
  try {
    // The sessions archived are a private copy: the store never names the corpora directory itself.
    const sessions = join(scratch, 'sessions');
    cpSync(join(codexClean, 'sessions'), sessions, { recursive: true });
    return CASES.map((c) => {
      const dir = join(outDir, 'stores', c.name);
      mkdirSync(dir, { recursive: true });
      const store = join(dir, 'store');
      runArchive({ roots: [sessions], store });
      // Left empty by a run that ended well; git cannot keep an empty directory.
      rmSync(join(store, 'tmp'), { recursive: true, force: true });
      c.damage?.(store);
      if (!c.index) rmSync(join(store, 'index.sqlite'), { force: true });
      return { ...c, dir };
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
