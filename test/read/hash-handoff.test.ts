/**
 * The hash hand-off of a log checked in a second thread: the loader's read skips hashing, and the other reader's
 * hash is adopted only when both saw the same file version; otherwise the file is hashed again by hashUnread.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { streamFile } from '../../src/read/files.js';
import { fsSource } from '../../src/read/source.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function session(content: string): { abs: string; file: string } {
  const abs = mkdtempSync(join(tmpdir(), 'sa-hash-'));
  dirs.push(abs);
  writeFileSync(join(abs, 'updates.jsonl'), content);
  return { abs, file: join(abs, 'updates.jsonl') };
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const lines = '{"a":1}\n{"a":2}\n';

test('a deferred read keeps no hash; the other reader\'s hash of the same version is adopted', () => {
  const { abs, file } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  src.deferHash('updates.jsonl');
  let records = 0;
  expect(src.streamJsonl('updates.jsonl', {}, () => records++, () => {}).ok).toBe(true);
  expect(records).toBe(2);
  expect(src.entry('updates.jsonl')!.sha256).toBeUndefined();
  const theirs = streamFile(file, () => {}, { stamp: true });
  expect(theirs.sha256).toBe(sha(lines));
  expect(src.adoptHash('updates.jsonl', theirs.sha256, theirs.size, theirs.stamps!)).toBe(true);
  expect(src.entry('updates.jsonl')!.sha256).toBe(sha(lines));
});

test('a file that changed between the two reads is not adopted, and hashUnread hashes what is there now', () => {
  const { abs, file } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  src.deferHash('updates.jsonl');
  src.streamJsonl('updates.jsonl', {}, () => {}, () => {});
  appendFileSync(file, '{"a":3}\n');
  const theirs = streamFile(file, () => {}, { stamp: true });
  expect(src.adoptHash('updates.jsonl', theirs.sha256, theirs.size, theirs.stamps!)).toBe(false);
  expect(src.entry('updates.jsonl')!.sha256).toBeUndefined();
  src.hashUnread();
  expect(src.entry('updates.jsonl')!.sha256).toBe(sha(`${lines}{"a":3}\n`));
});

test('a hash that is not a sha256, or stamps from another file, are refused', () => {
  const { abs, file } = session(lines);
  const other = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  src.deferHash('updates.jsonl');
  src.streamJsonl('updates.jsonl', {}, () => {}, () => {});
  const mine = streamFile(file, () => {}, { stamp: true });
  const theirs = streamFile(other.file, () => {}, { stamp: true });
  expect(src.adoptHash('updates.jsonl', theirs.sha256, theirs.size, theirs.stamps!)).toBe(false);
  src.deferHash('updates.jsonl');
  src.streamJsonl('updates.jsonl', {}, () => {}, () => {});
  expect(src.adoptHash('updates.jsonl', 'not-a-hash', mine.size, mine.stamps!)).toBe(false);
});

test('without deferral every read hashes as before', () => {
  const { abs } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  src.streamJsonl('updates.jsonl', {}, () => {}, () => {});
  expect(src.entry('updates.jsonl')!.sha256).toBe(sha(lines));
});

test('a read limited to the bytes an earlier read saw ignores what was appended since, in records and in hash', () => {
  const { abs, file } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  appendFileSync(file, '{"a":3}\n{"a":');
  const values: unknown[] = [];
  const damage: string[] = [];
  const r = src.streamJsonl('updates.jsonl', {}, (rec) => values.push(rec.value), (d) => damage.push(d.code), Buffer.byteLength(lines));
  expect(r.ok && r.value.bytes).toBe(Buffer.byteLength(lines));
  expect(values).toEqual([{ a: 1 }, { a: 2 }]);
  expect(damage).toEqual([]);
  expect(src.entry('updates.jsonl')!.sha256).toBe(sha(lines));
});
