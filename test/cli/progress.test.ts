/**
 * The progress bar: drawn only where progress may be drawn, at most ten times a second, and its time left
 * estimated from the pace of the sessions audited, not from the start-up and discovery before the first one.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { progressBar } from '../../src/cli/progress.js';

let lines: string[] = [];
const io = (progress: boolean): Io => ({
  stdout: () => {},
  stderr: (s) => void lines.push(s.replace(/^\r\u001b\[2K/, '')),
  setExitCode: () => {},
  isTTY: true,
  progress,
  columns: 80,
});

beforeEach(() => {
  lines = [];
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => vi.useRealTimers());

test('a slow start-up does not inflate the time left: the pace counts from the first session finished', () => {
  const bar = progressBar(io(true), 'auditing');
  vi.advanceTimersByTime(3000); // module loading and discovery
  bar.tick(1, 1000);
  expect(lines.at(-1)).toBe('auditing [....................] 1/1000 sessions');
  // 100 sessions a second from here on.
  for (let t = 1; t <= 10; t++) {
    vi.advanceTimersByTime(100);
    bar.tick(1 + 10 * t, 1000);
  }
  expect(lines.at(-1)).toBe('auditing [##..................] 101/1000 sessions ~9s left');
  bar.tick(1000, 1000);
  expect(lines.at(-1)).toBe('auditing [####################] 1000/1000 sessions');
  bar.end();
  expect(lines.at(-1)).toBe('');
});

test('no estimate before half a second of pace, and at most ten redraws a second', () => {
  const bar = progressBar(io(true), 'auditing');
  for (let i = 1; i <= 40; i++) {
    vi.advanceTimersByTime(10);
    bar.tick(i, 100);
  }
  expect(lines).toHaveLength(4);
  expect(lines.every((l) => !l.includes('left'))).toBe(true);
});

test('nothing drawn where progress may not be (a pipe, CI)', () => {
  const bar = progressBar(io(false), 'auditing');
  bar.tick(1, 10);
  bar.tick(10, 10);
  bar.end();
  expect(lines).toEqual([]);
});
