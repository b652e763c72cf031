/**
 * Auditing one session: load it through its format and run every selected check over the loader's events, then
 * the checks over a tree of sessions. No file access here: sessions arrive as SessionSources.
 */
import { dirname } from 'node:path';
import type { Check, CheckContext, CheckRun } from '../checks/define.js';
import type { RootCheck, RootCheckContext } from '../checks/define-root.js';
import { CHECKS, ROOT_CHECKS } from '../checks/registry.js';
import { formatNamed } from '../formats/registry.js';
import type { FormatModule } from '../formats/types.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { Finding, Severity } from '../model/finding.js';
import { opaque } from '../model/found.js';
import { DEFAULT_MAX_LINE_BYTES } from '../model/records.js';
import type { FileRecord, ToolError } from '../model/report.js';
import type { AuditExtras, LoadSink, SessionInfo } from '../model/session.js';
import type { SessionSource } from '../model/source.js';
import { compareFindings, countBySeverity, finishFingerprints, identityOf, makeFinding } from '../checks/findings.js';
import { fingerprintSession } from './fingerprints.js';
import { RecordOffload } from './parallel/record-offload.js';
import type { SessionResult } from './report.js';

export interface AuditOptions {
  command: 'audit' | 'validate' | 'verify';
  /** Codes to drop. */
  ignore?: ReadonlySet<string>;
  /** Per-code severity overrides. */
  severity?: ReadonlyMap<string, Severity>;
  /** Findings of one code in one file listed individually before the rest are summarised. */
  maxPerCodePerFile?: number;
  /** Only these checks (a test's own); default: the generic checks and the session's format's. */
  checks?: readonly Check[];
  /**
   * Only the checks with these ids (a command that needs a few findings, not an audit: `lineage` needs the resume
   * boundaries and the policy changes). Plain data, so it reaches worker threads.
   */
  only?: readonly string[];
  /** Longest JSONL line parsed (default 64 MiB). */
  maxLineBytes?: number;
  /** Largest database a format copies and reads (default 2 GiB). */
  maxDbBytes?: number;
  /** Evidence from outside the session directory (what CI captured around a run). */
  extras?: AuditExtras;
}

/** The checks a run applies to a session of this format, in order: the generic ones, then the format's own. */
export function checksFor(options: AuditOptions, format: FormatModule): readonly Check[] {
  const all = options.checks ?? [...CHECKS, ...format.checks];
  const picked = options.only ? all.filter((c) => options.only!.includes(c.id)) : all;
  return options.command === 'validate' ? picked.filter((c) => c.validate) : picked;
}

/** The root checks that apply to a tree: the generic ones, then each format's. */
export function rootChecks(formats: readonly FormatModule[]): readonly RootCheck[] {
  return [...ROOT_CHECKS, ...formats.flatMap((f) => f.rootChecks ?? [])];
}

/** The ids of the checks a run applies to a session of this format (per-session checks, then root checks). */
export function checkIdsFor(options: AuditOptions, formatName: string): string[] {
  const format = formatNamed(formatName);
  if (!format) return [];
  const ids = checksFor(options, format).map((c) => c.id);
  if (options.command === 'audit') ids.push(...rootChecks([format]).map((c) => c.id));
  return ids;
}

function toolError(session: string, check: string, e: unknown): ToolError {
  const err = e instanceof Error ? e : new Error(String(e));
  return { session, check, message: `${err.message}\n${err.stack ?? ''}`.trim() };
}

/**
 * Audit one session: load it through its format and run the checks over the events. `observers` see the same
 * events as the checks (commands that need more than findings, like inspect and pairs, collect through them).
 */
export function auditSession(
  source: SessionSource,
  format: FormatModule,
  options: AuditOptions,
  observers: readonly CheckRun[] = [],
): SessionResult {
  const found = source.found;
  const artifacts = format.classify(source.inventory);
  const info: SessionInfo = {
    id: found.id,
    path: found.display,
    format: format.name,
    found,
    inventory: source.inventory,
    artifacts,
  };
  const findings: Finding[] = [];
  const toolErrors: ToolError[] = [];
  /** Findings left out by --ignore (or the config's ignore), by code: the report says what it hid. */
  const ignored: Record<string, number> = {};
  const cap = options.maxPerCodePerFile ?? 200;
  const perKey = new Map<string, { n: number; last?: Finding }>();

  const runs: Array<{ check: Check; run: CheckRun; failed: boolean }> = [];
  for (const check of checksFor(options, format)) {
    const ctx: CheckContext = {
      session: info,
      agent: format,
      extras: options.extras ?? {},
      emit(code, location, message, opts) {
        const meta = check.codes[code];
        if (!meta) throw new Error(`check ${check.id} emitted ${code}, which it does not declare`);
        if (options.ignore?.has(code)) {
          ignored[code] = (ignored[code] ?? 0) + 1;
          return;
        }
        const f = makeFinding({
          code,
          info: meta,
          check: check.id,
          session: info,
          location,
          message,
          ...(opts?.severity ? { severity: opts.severity } : {}),
          ...(opts?.key !== undefined ? { key: opts.key } : {}),
          ...(options.severity ? { overrides: options.severity } : {}),
        });
        const k = `${code}\u0000${f.location.file}`;
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

  for (const run of observers)
    runs.push({ check: { id: 'observer', validate: true, codes: {}, create: () => run }, run, failed: false });
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
  const offloads = new Map<string, RecordOffload>();
  // Large logs are parsed twice, here and in a second thread (parallel/record-offload.ts), and the per-record work
  // that needs no order goes there: the schema check and the secret scan, which looks only at the lines the native
  // pass over the raw bytes names (secrets/raw-literals.ts), while this thread normalizes and runs the checks that
  // need the records in order (1 GB, interleaved on a loaded machine: 16.1 s against 19.6 s with the schema check
  // here, 26.2 s before the native pass).
  const secretsRun = runs.some((r) => r.check.id === 'secrets');
  const work = {
    validate: runs.some((r) => r.check.id === 'schema'),
    secrets: secretsRun,
    cap,
  };
  if (!opaque(found) && (work.validate || work.secrets)) {
    for (const a of artifacts.values()) {
      if (a.role !== 'jsonl' && a.role !== 'quarantine') continue;
      const o = RecordOffload.start(source, format, a.path, a.kind, maxLineBytes, work);
      if (o) offloads.set(a.path, o);
    }
  }
  const onRecord = dispatcher('record');
  const onFileEnd = dispatcher('fileEnd');
  const sink: LoadSink = {
    doc: dispatcher('doc'),
    record: (d) => {
      if (offloads.size > 0) {
        const o = offloads.get(d.file);
        if (o?.work.validate) d.offloaded = true;
        if (o?.work.secrets) d.secretsOffloaded = true;
      }
      onRecord(d);
    },
    event: dispatcher('event'),
    chat: dispatcher('chat'),
    damage: dispatcher('damage'),
    fileEnd: (d) => {
      const o = offloads.get(d.file);
      if (o) {
        offloads.delete(d.file);
        const got = o.finish(d) ?? o.inline(d, format);
        d.schemaIssues = got.issues;
        if (got.secrets) d.secretFindings = got.secrets;
      }
      onFileEnd(d);
    },
  };
  try {
    if (!opaque(found))
      format.load(source, artifacts, sink, {
        maxLineBytes,
        ...(options.maxDbBytes !== undefined ? { maxDbBytes: options.maxDbBytes } : {}),
      });
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
      message:
        `${slot.n - cap} more ${code} finding(s) in this file are not listed individually (the last one: ` +
        `${last.location.line !== undefined ? `line ${last.location.line}` : 'see location'})`,
      fingerprint: identityOf(code!, info.id, last.location, 'overflow'),
    });
  }
  findings.sort(compareFindings);
  fingerprintSession(opaque(found) ? undefined : source, findings);
  const result: SessionResult = { session: sessionReport(info, source, findings), findings, toolErrors };
  if (Object.keys(ignored).length) result.ignored = ignored;
  return result;
}

/** The report's record of every entry of a source's inventory (hashes as read). */
export function fileRecords(source: SessionSource): FileRecord[] {
  return source.inventory.map((e) => {
    const r: FileRecord = { path: e.path, type: e.type };
    if (e.rawPath !== undefined) r.rawPath = e.rawPath;
    if (e.type === 'file') r.size = e.size;
    if (e.sha256 !== undefined) r.sha256 = e.sha256;
    if (e.linkTarget !== undefined) r.linkTarget = e.linkTarget;
    if (e.readError !== undefined) r.readError = e.readError;
    return r;
  });
}

function sessionReport(
  info: SessionInfo,
  source: SessionSource,
  findings: readonly Finding[],
): SessionResult['session'] {
  const files = fileRecords(source);
  const report: SessionResult['session'] = {
    id: info.id,
    path: info.path,
    format: info.format,
    files,
    findings: countBySeverity(findings),
  };
  if (info.found.home !== undefined) report.home = info.found.home;
  // A session stored as files is shown by its main file; its locations are relative to the folder holding it.
  if (info.found.members) report.dir = dirname(info.path);
  return report;
}

/** Run the checks over a whole tree (lineage, sandbox inheritance) and add their findings to the sessions'. */
export function runRootChecks(
  results: readonly SessionResult[],
  graph: LineageGraph,
  checks: ReadonlyArray<{ check: RootCheck; prepared: unknown }>,
  options: AuditOptions,
): void {
  const byPath = new Map(results.map((r) => [r.session.path, r]));
  const added = new Map<SessionResult, Finding[]>();
  for (const { check, prepared } of checks) {
    const ctx: RootCheckContext = {
      graph,
      agentOf: (on) => {
        const f = formatNamed(on.format);
        if (!f) throw new Error(`session ${on.path} has no known format (${on.format})`);
        return f;
      },
      emit(on, code, location, message, opts) {
        const r = byPath.get(on.path);
        const meta = check.codes[code];
        if (!r || !meta) throw new Error(`root check ${check.id} emitted ${code} for ${on.path}`);
        if (options.ignore?.has(code)) {
          r.ignored ??= {};
          r.ignored[code] = (r.ignored[code] ?? 0) + 1;
          return;
        }
        const f = makeFinding({
          code,
          info: meta,
          check: check.id,
          session: r.session,
          location,
          message,
          ...(opts?.severity ? { severity: opts.severity } : {}),
          ...(opts?.key !== undefined ? { key: opts.key } : {}),
          ...(options.severity ? { overrides: options.severity } : {}),
        });
        r.findings.push(f);
        const mine = added.get(r) ?? [];
        mine.push(f);
        added.set(r, mine);
      },
    };
    try {
      check.run(ctx, prepared);
    } catch (e) {
      results[0]?.toolErrors.push(toolError('(root)', check.id, e));
    }
  }
  // Over the whole tree there are no session bytes to digest (a merge runs where the sessions are not).
  for (const list of added.values()) finishFingerprints(list, () => undefined);
}
