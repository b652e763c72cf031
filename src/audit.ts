/**
 * The audit engine: for each session, run every selected check over the loader's events and collect
 * findings; then assemble the deterministic report. No file access here: sessions arrive as SessionSources.
 */
import { createHash } from 'node:crypto';
import type { Check, CheckContext, CheckRun } from './checks/define.js';
import { CHECKS, ROOT_CHECKS } from './checks/registry.js';
import type { CapturedSession, RootCheckContext } from './checks/define-root.js';
import type { LineageGraph } from './lineage/graph.js';
import type { ProfileBook } from './sandbox/profiles.js';
import type { FormatModule } from './formats/types.js';
import { SEVERITY_RANK, type Finding, type Location, type Severity } from './model/finding.js';
import type { AuditReport, FileRecord, SessionReport, ToolError } from './model/report.js';
import type { LoadSink, SessionInfo } from './model/session.js';
import type { SessionSource } from './read/source.js';
import { byteOrder } from './read/walk.js';
import { DEFAULT_MAX_LINE_BYTES } from './read/jsonl.js';
import { SchemaOffload } from './checks/schema-offload.js';
import { opaque } from './read/discover.js';

export const TOOL_VERSION = '0.1.0';

export interface AuditOptions {
  command: 'audit' | 'validate' | 'verify';
  /** Codes to drop. */
  ignore?: ReadonlySet<string>;
  /** Per-code severity overrides. */
  severity?: ReadonlyMap<string, Severity>;
  /** Findings of one code in one file listed individually before the rest are summarised. */
  maxPerCodePerFile?: number;
  checks?: readonly Check[];
  /** Longest JSONL line parsed (default 64 MiB, Grok's own cap). */
  maxLineBytes?: number;
  /** Evidence from outside the session directory (what CI captured around a headless run). */
  extras?: AuditExtras;
}

export interface AuditExtras {
  /** The `--output-format streaming-json` or `json` output of `grok -p`, as given on the command line. */
  headlessLog?: { path: string; bytes: Buffer } | { path: string; error: string };
  /** The exit code of the `grok -p` process. */
  exitCode?: number;
}

export interface SessionResult {
  session: SessionReport;
  findings: Finding[];
  toolErrors: ToolError[];
}

export function fingerprint(code: string, session: string, loc: Location, key = ''): string {
  const h = createHash('sha256');
  h.update([code, session, loc.file, loc.line ?? '', loc.pointer ?? '', key].join('\u0000'));
  return h.digest('hex').slice(0, 32);
}

/** A finding outside a session audit (bundle verification): the same shape, fingerprint and ordering. */
export function standaloneFinding(check: string, code: string, severity: Severity, session: string, sessionPath: string, location: Location, message: string, key?: string): Finding {
  const loc = cleanLocation(location);
  return { code, severity, message, check, session, sessionPath, location: loc, fingerprint: fingerprint(code, session, loc, key) };
}

export function selectChecks(options: AuditOptions): readonly Check[] {
  const all = options.checks ?? CHECKS;
  return options.command === 'validate' ? all.filter((c) => c.validate) : all;
}

/**
 * Audit one session: load it through its format and run the checks over the events. `observers` see the same
 * events as the checks (commands that need more than findings, like inspect and pairs, collect through them).
 */
export function auditSession(source: SessionSource, format: FormatModule, options: AuditOptions, observers: readonly CheckRun[] = []): SessionResult {
  const found = source.found;
  const artifacts = format.classify(source.inventory);
  const info: SessionInfo = { id: found.id, path: found.display, format: format.name, found, inventory: source.inventory, artifacts };
  const findings: Finding[] = [];
  const toolErrors: ToolError[] = [];
  const cap = options.maxPerCodePerFile ?? 200;
  const perKey = new Map<string, { n: number; last?: Finding }>();

  const runs: Array<{ check: Check; run: CheckRun; failed: boolean }> = [];
  for (const check of selectChecks(options)) {
    if (check.formats && !check.formats.includes(format.name)) continue;
    const ctx: CheckContext = {
      session: info,
      format,
      extras: options.extras ?? {},
      emit(code, location, message, opts) {
        const meta = (check.codes as Record<string, { severity: Severity } | undefined>)[code];
        if (!meta) throw new Error(`check ${check.id} emitted ${code}, which it does not declare`);
        if (options.ignore?.has(code)) return;
        const loc = cleanLocation(location);
        const f: Finding = {
          code,
          severity: options.severity?.get(code) ?? opts?.severity ?? meta.severity,
          message,
          check: check.id,
          session: info.id,
          sessionPath: info.path,
          location: loc,
          fingerprint: fingerprint(code, info.id, loc, opts?.key),
        };
        const k = `${code}\u0000${loc.file}`;
        const slot = perKey.get(k) ?? { n: 0 };
        perKey.set(k, slot);
        slot.n++;
        if (slot.n <= cap) findings.push(f);
        else slot.last = f;
      },
    };
    try {
      runs.push({ check, run: check.create(ctx), failed: false });
    } catch (e) {
      toolErrors.push(toolError(info.id, check.id, e));
    }
  }

  for (const run of observers) runs.push({ check: { id: 'observer', validate: true, codes: {}, create: () => run }, run, failed: false });
  const fail = (r: (typeof runs)[number], e: unknown): void => {
    r.failed = true;
    toolErrors.push(toolError(info.id, r.check.id, e));
  };
  /**
   * Deliver one hook to the checks that have it; a check that throws is reported and skipped from then on. The
   * per-record hooks run millions of times: the list is filtered once, and no closure is made per call.
   */
  const dispatcher = <K extends keyof CheckRun>(k: K): ((d: Parameters<NonNullable<CheckRun[K]>>[0]) => void) => {
    const list = runs.filter((r) => r.run[k] !== undefined);
    return (d) => {
      for (const r of list) {
        if (r.failed) continue;
        try {
          (r.run[k] as (x: typeof d) => void).call(r.run, d);
        } catch (e) {
          fail(r, e);
        }
      }
    };
  };
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  // Large logs are schema-checked in a second thread while this one loads them (see checks/schema-offload.ts).
  const offloads = new Map<string, SchemaOffload>();
  if (!opaque(found) && runs.some((r) => r.check.id === 'schema')) {
    for (const a of artifacts.values()) {
      if (a.role !== 'jsonl' && a.role !== 'quarantine') continue;
      const o = SchemaOffload.start(source, format, a.path, a.kind, maxLineBytes);
      if (o) offloads.set(a.path, o);
    }
  }
  const onRecord = dispatcher('record');
  const onFileEnd = dispatcher('fileEnd');
  const sink: LoadSink = {
    doc: dispatcher('doc'),
    record: (d) => {
      if (offloads.size > 0 && offloads.has(d.file)) d.offloaded = true;
      onRecord(d);
    },
    event: dispatcher('event'),
    chat: dispatcher('chat'),
    damage: dispatcher('damage'),
    fileEnd: (d) => {
      const o = offloads.get(d.file);
      if (o) {
        offloads.delete(d.file);
        d.schemaIssues = o.finish(d) ?? SchemaOffload.inline(source, format, d, maxLineBytes);
      }
      onFileEnd(d);
    },
  };
  try {
    if (!opaque(found)) format.load(source, artifacts, sink, { maxLineBytes });
  } finally {
    for (const o of offloads.values()) o.cancel();
  }
  dispatcher('end')(undefined);

  for (const [k, slot] of perKey) {
    if (slot.n <= cap || !slot.last) continue;
    const [code] = k.split('\u0000');
    const last = slot.last;
    findings.push({
      ...last,
      message: `${slot.n - cap} more ${code} finding(s) in this file are not listed individually (the last one: ${last.location.line !== undefined ? `line ${last.location.line}` : 'see location'})`,
      fingerprint: fingerprint(code!, info.id, last.location, 'overflow'),
    });
  }

  findings.sort(compareFindings);
  return { session: sessionReport(info, source, findings), findings, toolErrors };
}

function cleanLocation(l: Location): Location {
  const out: Location = { file: l.file };
  if (l.line !== undefined) out.line = l.line;
  if (l.byteOffset !== undefined) out.byteOffset = l.byteOffset;
  if (l.byteLength !== undefined) out.byteLength = l.byteLength;
  if (l.pointer !== undefined) out.pointer = l.pointer;
  return out;
}

function toolError(session: string, check: string, e: unknown): ToolError {
  const err = e instanceof Error ? e : new Error(String(e));
  return { session, check, message: `${err.message}\n${err.stack ?? ''}`.trim() };
}

export function compareFindings(a: Finding, b: Finding): number {
  return (
    byteOrder(a.sessionPath, b.sessionPath) ||
    byteOrder(a.location.file, b.location.file) ||
    (a.location.byteOffset ?? -1) - (b.location.byteOffset ?? -1) ||
    (a.location.line ?? 0) - (b.location.line ?? 0) ||
    byteOrder(a.code, b.code) ||
    byteOrder(a.location.pointer ?? '', b.location.pointer ?? '') ||
    byteOrder(a.message, b.message)
  );
}

function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const c: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

function sessionReport(info: SessionInfo, source: SessionSource, findings: readonly Finding[]): SessionReport {
  const files: FileRecord[] = source.inventory.map((e) => {
    const r: FileRecord = { path: e.path, type: e.type };
    if (e.type === 'file') r.size = e.size;
    if (e.sha256 !== undefined) r.sha256 = e.sha256;
    if (e.linkTarget !== undefined) r.linkTarget = e.linkTarget;
    if (e.readError !== undefined) r.readError = e.readError;
    return r;
  });
  return { id: info.id, path: info.path, format: info.format, files, findings: countBySeverity(findings) };
}

/** Run the checks over a whole tree (lineage, sandbox inheritance) and add their findings to the sessions'. */
export function runRootChecks(results: readonly SessionResult[], graph: LineageGraph, profiles: ProfileBook, options: AuditOptions, earlier?: ReadonlyMap<string, CapturedSession>): void {
  const byPath = new Map(results.map((r) => [r.session.path, r]));
  for (const check of ROOT_CHECKS) {
    const ctx: RootCheckContext = {
      graph,
      profiles,
      ...(earlier ? { earlier } : {}),
      emit(on, code, location, message, opts) {
        const r = byPath.get(on.path);
        const meta = (check.codes as Record<string, { severity: Severity } | undefined>)[code];
        if (!r || !meta) throw new Error(`root check ${check.id} emitted ${code} for ${on.path}`);
        if (options.ignore?.has(code)) return;
        const loc = cleanLocation(location);
        r.findings.push({
          code,
          severity: options.severity?.get(code) ?? opts?.severity ?? meta.severity,
          message,
          check: check.id,
          session: r.session.id,
          sessionPath: r.session.path,
          location: loc,
          fingerprint: fingerprint(code, r.session.id, loc, opts?.key),
        });
      },
    };
    try {
      check.run(ctx);
    } catch (e) {
      results[0]?.toolErrors.push(toolError('(root)', check.id, e));
    }
  }
}

/** Assemble the report from per-session results, in a deterministic order. */
export function buildReport(results: readonly SessionResult[], options: AuditOptions): AuditReport {
  const sorted = [...results].sort((a, b) => byteOrder(a.session.path, b.session.path));
  for (const r of sorted) {
    r.findings.sort(compareFindings);
    r.session.findings = countBySeverity(r.findings);
  }
  const findings = sorted.flatMap((r) => r.findings);
  const byCode: Record<string, number> = {};
  for (const f of findings) byCode[f.code] = (byCode[f.code] ?? 0) + 1;
  const files = sorted.reduce((n, r) => n + r.session.files.filter((f) => f.type === 'file').length, 0);
  const bytes = sorted.reduce((n, r) => n + r.session.files.reduce((m, f) => m + (f.size ?? 0), 0), 0);
  return {
    tool: { name: 'session-audit', version: TOOL_VERSION },
    reportVersion: 1,
    command: options.command,
    summary: {
      sessions: sorted.length,
      files,
      bytes,
      findings: countBySeverity(findings),
      byCode: Object.fromEntries(Object.entries(byCode).sort(([a], [b]) => byteOrder(a, b))),
    },
    sessions: sorted.map((r) => r.session),
    findings,
    toolErrors: sorted.flatMap((r) => r.toolErrors),
  };
}

export type FailOn = Severity | 'never';

/** True when some finding is at or above the threshold. */
export function fails(report: AuditReport, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  const limit = SEVERITY_RANK[failOn];
  return report.findings.some((f) => SEVERITY_RANK[f.severity] <= limit);
}

/** The ids of the checks a run applies to a session of this format (per-session checks, then root checks). */
export function checkIdsFor(options: AuditOptions, format: string): string[] {
  const ids = selectChecks(options)
    .filter((c) => !c.formats || c.formats.includes(format))
    .map((c) => c.id);
  if (options.command === 'audit') ids.push(...ROOT_CHECKS.map((c) => c.id));
  return ids;
}
