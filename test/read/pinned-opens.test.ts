/**
 * Evidence opens pinned to what the walk saw (src/read/pinned.ts): a descriptor showing the device and inode the
 * walk recorded through the checked directory is that file; any other is checked by the path it names. A file an
 * agent rewrote in place of the old one (write a copy, rename it over: a new inode) is still read, as the file at
 * its path now; a directory swapped for a symlink is a race (test/robustness/race.test.ts). Span reads of a small
 * file come from the bytes the audit read.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { walkedIdentity } from '../../src/read/pinned.js';
import { fsSource } from '../../src/read/source.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

function source(files: Record<string, string>) {
  const abs = mkdtempSync(join(tmpdir(), 'sa-pin-'));
  dirs.push(abs);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(abs, name), text);
  return { abs, src: fsSource({ abs, display: abs, id: 'x', format: 'grok' }) };
}

test('the walk records the device, inode and birth time of each file it saw through the checked directory', () => {
  const { src } = source({ 'summary.json': '{}' });
  const entry = src.entry('summary.json')!;
  expect(walkedIdentity(entry)).toEqual({
    dev: expect.any(Number),
    ino: expect.any(Number),
    birth: expect.any(Number),
  });
  const r = src.readFile('summary.json', 1024);
  expect(r.ok).toBe(true);
  expect(entry.sha256).toBe(sha('{}'));
});

test('a file renamed over after the walk (a new inode at the same path) is read as the file at that path', () => {
  const { abs, src } = source({ 'summary.json': '{"v":1}' });
  writeFileSync(join(abs, 'summary.json.tmp'), '{"v":2}');
  renameSync(join(abs, 'summary.json.tmp'), join(abs, 'summary.json'));
  const r = src.readFile('summary.json', 1024);
  expect(r.ok && r.value.bytes.toString()).toBe('{"v":2}');
  expect(src.entry('summary.json')!.sha256).toBe(sha('{"v":2}'));
});

test('span reads of a small file are the bytes the audit read, line by line', () => {
  const text = '{"a":1}\n{"b":22}\n{"c":333}';
  const { abs, src } = source({ 'updates.jsonl': text });
  const seen: number[] = [];
  const r = src.streamJsonl(
    'updates.jsonl',
    {},
    (rec) => seen.push(rec.byteOffset),
    () => {},
  );
  expect(r.ok).toBe(true);
  expect(seen).toEqual([0, 8, 17]);
  // The file changes on disk afterwards: the spans still show what was parsed.
  writeFileSync(join(abs, 'updates.jsonl'), 'x'.repeat(40));
  const spans = src.readSpans('updates.jsonl', [
    { offset: 8, max: 1 << 20, line: true },
    { offset: 17, max: 1 << 20, line: true },
    { offset: 0, max: 3, line: false },
    { offset: 100, max: 10, line: true },
  ]);
  expect(spans.ok && spans.value.map((b) => b.toString())).toEqual(['{"b":22}', '{"c":333}', '{"a', '']);
});

test('a small file read twice serves its spans from the latest read, not the first', () => {
  const { abs, src } = source({ 'summary.json': '{"v":1}' });
  expect(src.readFile('summary.json', 1024).ok).toBe(true);
  // A live session rewrites it between two reads (an identity read, then the audit's): spans are the audit's bytes.
  writeFileSync(join(abs, 'summary.json'), '{"v":22}');
  expect(src.readFile('summary.json', 1024).ok).toBe(true);
  writeFileSync(join(abs, 'summary.json'), 'gone');
  const spans = src.readSpans('summary.json', [{ offset: 0, max: 1 << 20, line: true }]);
  expect(spans.ok && spans.value.map((b) => b.toString())).toEqual(['{"v":22}']);
});
