/**
 * The audit of the shipped corpora that `npm run reports` writes to reports/ (every case with the options its
 * expected.json gives): one function, so that a test can compare what the code finds now with the committed
 * reports/corpora-audit.json (a change that should not change findings, a faster reader, must leave it byte for
 * byte).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AuditOptions } from '../src/engine/audit-session.js';
import { buildReport, type SessionResult } from '../src/engine/report.js';
import { auditTree } from '../src/engine/tree.js';
import type { LineageGraph } from '../src/lineage/graph.js';
import type { AuditReport } from '../src/model/report.js';

/** `root`: the package (paths in the report are relative to it: run with it as the working directory). */
export function auditCorpora(root: string): {
  report: AuditReport;
  graphs: Map<string, LineageGraph>;
  audited: string[];
} {
  const corpora = join(root, 'corpora');
  const results: SessionResult[] = [];
  const graphs = new Map<string, LineageGraph>();
  const audited: string[] = [];
  /** A case may ship the sandbox.toml its sessions were created with (the lineage corpus does). */
  const sandboxConfigOf = (dir: string) =>
    existsSync(join(dir, 'sandbox.toml')) ? { sandboxConfig: [relative(root, join(dir, 'sandbox.toml'))] } : {};
  for (const format of readdirSync(corpora).sort()) {
    for (const name of readdirSync(join(corpora, format)).sort()) {
      const dir = join(corpora, format, name);
      const expectedPath = join(dir, 'expected.json');
      if (!existsSync(expectedPath)) continue;
      const expected = JSON.parse(readFileSync(expectedPath, 'utf8')) as { args?: string[]; command?: string };
      if (expected.command === 'verify' || expected.command === 'verify-store') continue;
      const options: AuditOptions = { command: 'audit' };
      const args = expected.args ?? [];
      const i = args.indexOf('--max-line-bytes');
      if (i >= 0) options.maxLineBytes = Number(args[i + 1]);
      const t = auditTree([relative(root, dir)], options, sandboxConfigOf(dir));
      results.push(...t.results);
      for (const [k, g] of t.graphs) graphs.set(k, g);
      audited.push(relative(root, dir));
    }
  }
  return { report: buildReport(results, 'audit'), graphs, audited };
}
