/**
 * What the tests of an agent's home share: a corpora case's files written into a directory, the home audited (the
 * report, the findings about the home, the raw JSON), and a corpora case checked whole: the codes of the checks under
 * test are exactly those the case must produce, no tool error, no stack trace, no planted key in the report, a line
 * finding has its byte offset, and nothing in the home changed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { Files } from '../../scripts/corpora/case-kit.js';
import { PLANTED } from '../../scripts/corpora/secrets.js';
import type { Finding } from '../../src/model/finding.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from './cli.js';
import { treeState } from './tree-hash.js';

/** Write a case's files (its symlinks and set-ups are not written: home cases have none). */
export function writeFiles(dir: string, files: Files): void {
  for (const [rel, c] of files) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof c === 'string' || Buffer.isBuffer(c)) writeFileSync(p, c);
  }
}

export interface HomeAudit {
  report: AuditReport;
  /** The findings about the agents' homes (not their sessions). */
  home: Finding[];
  raw: string;
}

/** `audit <dir> --format json`, which must write nothing on stderr. */
export async function auditHome(dir: string, ...args: string[]): Promise<HomeAudit> {
  const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never', ...args]);
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout) as AuditReport;
  const homes = report.sessions.filter((s) => s.kind === 'home');
  const home = report.findings.filter((f) => homes.some((h) => h.path === f.sessionPath));
  return { report, home, raw: r.stdout };
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const NAMED = new RegExp(`\\bsession (${UUID})\\b`);
const FIRST = new RegExp(`\\b(${UUID})\\b`);

/** The session a home finding is about: the one its message calls `session <id>`. */
export const sessionNamed = (f: Finding): string | undefined => NAMED.exec(f.message)?.[1];
/** The session a home finding is about when its message names it first, without the word. */
export const firstSessionId = (f: Finding): string | undefined => FIRST.exec(f.message)?.[1];

/** Write `files` into `dir` and audit it. */
export async function auditFiles(dir: string, files: Files, ...args: string[]): Promise<HomeAudit> {
  writeFiles(dir, files);
  return auditHome(dir, ...args);
}

/** The case of that name (a typo is a failure here, not an undefined later). */
export function caseNamed<C extends { name: string }>(cases: readonly C[], name: string): C {
  const c = cases.find((x) => x.name === name);
  if (!c) throw new Error(`no corpora case ${name}`);
  return c;
}

export interface HomeCase {
  name: string;
  files: Files;
  must: readonly string[];
}

/**
 * Write the case into `dir`, audit it and check what every case must hold. `mine`: the codes of the checks under
 * test; `clean`: the case must have no finding at all.
 */
export async function auditCase(
  dir: string,
  c: HomeCase,
  mine: (code: string) => boolean,
  clean = false,
): Promise<HomeAudit> {
  writeFiles(dir, c.files);
  const before = treeState(dir);
  const audit = await auditHome(dir);
  const { report, home, raw } = audit;
  expect(report.toolErrors ?? []).toEqual([]);
  const codes = [...new Set(report.findings.map((f) => f.code))].filter(mine);
  expect(codes.sort(), c.name).toEqual([...c.must].sort());
  if (clean) expect(report.findings).toEqual([]);
  expect(home.filter((f) => mine(f.code)).length).toBeGreaterThanOrEqual(c.must.length);
  for (const f of home.filter((x) => mine(x.code) && x.location.line !== undefined))
    expect(f.location.byteOffset, f.code).toBeTypeOf('number');
  expect(raw).not.toContain(PLANTED['api-key']!);
  expect(raw).not.toMatch(/\n\s+at .*\.ts:\d+/);
  expect(treeState(dir)).toEqual(before);
  return audit;
}
