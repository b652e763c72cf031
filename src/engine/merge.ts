/**
 * `merge`: shard reports of `audit --shard k/n` combined into the report the unsharded run writes, byte for
 * byte: per-session results are taken as they are; the checks over each sessions root's lineage graph run again
 * over every shard's lineage facts, with the options the shards recorded.
 */
import type { AuditOptions } from './audit-session.js';
import { buildReport, type SessionResult } from './report.js';
import type { LineageGraph } from '../lineage/graph.js';
import { AuditReportSchema, type AuditReport } from '../model/report.js';
import type { Severity } from '../model/finding.js';
import { byteOrder } from '../model/order.js';
import { UsageError } from '../errors.js';
import { finishMerged } from './tree.js';
import { readUserFile } from './user-files.js';

type Shard = NonNullable<AuditReport['shard']>;

export interface Merged {
  report: AuditReport;
  options: AuditOptions;
  paths: string[];
  graphs: Map<string, LineageGraph>;
  /** --format-hint of the shards. */
  formatHint?: string;
}

function readShard(path: string): AuditReport & { shard: Shard } {
  let raw: unknown;
  try {
    raw = JSON.parse(readUserFile('merge', path).toString('utf8'));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`merge ${path}: not valid JSON (${(e as Error).message})`);
  }
  const r = AuditReportSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new UsageError(
      `merge ${path}: not a session-audit JSON report: at /${issue.path.map(String).join('/')}: ${issue.message}`,
    );
  }
  if (!r.data.shard) throw new UsageError(`merge ${path}: not a shard report (made without --shard k/n)`);
  return r.data as AuditReport & { shard: Shard };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function mergeShards(files: readonly string[]): Merged {
  const shards = files.map((f) => ({ file: f, report: readShard(f) }));
  const first = shards[0]!.report.shard;
  const seen = new Map<number, string>();
  for (const { file, report } of shards) {
    const s = report.shard;
    if (s.count !== first.count)
      throw new UsageError(`merge ${file}: shard of ${s.count}, but ${shards[0]!.file} is a shard of ${first.count}`);
    if (
      !same(s.paths, first.paths) ||
      !same(s.options, first.options) ||
      report.command !== shards[0]!.report.command ||
      report.tool.version !== shards[0]!.report.tool.version
    ) {
      throw new UsageError(
        `merge ${file}: made with other paths, options or tool version than ${shards[0]!.file}; shards must come ` +
          `from one command line`,
      );
    }
    if (seen.has(s.index))
      throw new UsageError(`merge ${file}: shard ${s.index}/${s.count} is also ${seen.get(s.index)!}`);
    seen.set(s.index, file);
  }
  const missing = Array.from({ length: first.count }, (_, i) => i + 1).filter((k) => !seen.has(k));
  if (missing.length)
    throw new UsageError(
      `merge: shard${missing.length === 1 ? '' : 's'} ${missing.map((k) => `${k}/${first.count}`).join(', ')} ` +
        `missing; give all ${first.count}`,
    );

  const o = first.options;
  const options: AuditOptions = {
    command: o.command,
    ignore: new Set(o.ignore),
    severity: new Map(Object.entries(o.severity) as Array<[string, Severity]>),
    ...(o.maxLineBytes !== undefined ? { maxLineBytes: o.maxLineBytes } : {}),
    ...(o.maxDbBytes !== undefined ? { maxDbBytes: o.maxDbBytes } : {}),
  };
  const results: SessionResult[] = [];
  for (const { report } of shards) {
    const byPath = new Map<string, SessionResult>();
    for (const s of report.sessions) {
      const r: SessionResult = {
        session: { ...s, files: s.files.map((f) => ({ ...f })) },
        findings: [],
        toolErrors: [],
      };
      byPath.set(s.path, r);
      results.push(r);
    }
    for (const f of report.findings) byPath.get(f.sessionPath)?.findings.push({ ...f, location: { ...f.location } });
    for (const e of report.toolErrors)
      (results.find((r) => r.session.id === e.session) ?? results[0])?.toolErrors.push({ ...e });
  }
  const facts = shards
    .flatMap(({ report }) => report.shard.lineage.map((f) => ({ ...f })))
    .sort((a, b) => byteOrder(a.path, b.path));
  const tree = {
    sandboxConfig: o.sandboxConfig,
    ...(o.against !== undefined ? { against: o.against } : {}),
    ...(o.home !== undefined ? { home: o.home } : {}),
  };
  const { graphs } = finishMerged(results, facts, options, tree);
  const report = buildReport(results, options.command);
  const configuration = mergedConfiguration(
    shards.map((s) => s.report.configuration),
    results,
    report,
  );
  if (configuration) report.configuration = configuration;
  return {
    report,
    options,
    paths: first.paths,
    graphs,
    ...(o.formatHint !== undefined ? { formatHint: o.formatHint } : {}),
  };
}

/**
 * The shards' configuration (they share one command line): what each ignore hid is summed over the shards, plus
 * what it hid among the findings of the checks that ran again here; severity counts are those of the merged report.
 */
function mergedConfiguration(
  configs: ReadonlyArray<AuditReport['configuration']>,
  results: readonly SessionResult[],
  report: AuditReport,
): AuditReport['configuration'] {
  const first = configs[0];
  if (!first) return undefined;
  const hidden = new Map<string, number>();
  for (const c of configs) for (const i of c?.ignore ?? []) hidden.set(i.code, (hidden.get(i.code) ?? 0) + i.hidden);
  for (const r of results)
    for (const [code, n] of Object.entries(r.ignored ?? {})) hidden.set(code, (hidden.get(code) ?? 0) + n);
  const perCode = new Map<string, number>();
  for (const f of report.findings) perCode.set(f.code, (perCode.get(f.code) ?? 0) + 1);
  return {
    ...first,
    ignore: first.ignore.map((i) => ({ ...i, hidden: hidden.get(i.code) ?? 0 })),
    severity: first.severity.map((s) => ({ ...s, findings: perCode.get(s.code) ?? 0 })),
  };
}
