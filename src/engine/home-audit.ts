/**
 * Auditing an agent's home: the files it keeps beside its sessions (read through `read/` as any evidence: read-only,
 * pinned, hashed), judged by the format's home checks against the sessions found in the home. The home is reported
 * as an entry of its own (`kind: "home"`), its findings with paths relative to it; what its files know of sessions
 * whose logs are gone is handed to the `sessions` list.
 */
import { basename } from 'node:path';
import type { GoneSession, HomeCheck, HomeCheckContext, RecalledEntry } from '../checks/define-home.js';
import { countBySeverity, makeFinding } from '../checks/findings.js';
import { HOME_CHECKS } from '../checks/registry.js';
import { formatNamed } from '../formats/registry.js';
import type { Finding } from '../model/finding.js';
import type { FoundHome, FoundSession } from '../model/found.js';
import { fsSource } from '../read/source.js';
import { DEFAULT_MAX_LINE_BYTES } from '../model/records.js';
import { fileRecords, type AuditOptions } from './audit-session.js';
import { fingerprintSession } from './fingerprints.js';
import type { SessionResult } from './report.js';

export interface HomeResult {
  result: SessionResult;
  gone: GoneSession[];
}

/** The home's own checks a run applies (none for `validate`: they judge evidence, not records' shapes). */
export function homeChecksFor(options: AuditOptions, format: string): readonly HomeCheck[] {
  if (options.command !== 'audit') return [];
  const all = [...HOME_CHECKS, ...(formatNamed(format)?.home?.checks ?? [])];
  return options.only ? all.filter((c) => options.only!.includes(c.id)) : all;
}

/** The sessions of the home's format found inside it, by id. */
function sessionsIn(home: FoundHome, sessions: readonly FoundSession[]): Map<string, FoundSession[]> {
  const byId = new Map<string, FoundSession[]>();
  for (const s of sessions) {
    if (s.format !== home.format || !(s.abs === home.abs || s.abs.startsWith(`${home.abs}/`))) continue;
    const list = byId.get(s.id) ?? [];
    list.push(s);
    byId.set(s.id, list);
  }
  return byId;
}

const noop = (): void => {};

/** The home's files as one read-only source, as a session's are. */
export function homeSource(home: FoundHome): HomeCheckContext['source'] {
  return fsSource(homeAsFound(home));
}

/** A home as a session of its format whose members are the home's own files (for the bag and `--against`). */
export function homeAsFound(home: FoundHome): FoundSession {
  return { abs: home.abs, display: home.display, id: basename(home.display), format: home.format, members: home.files };
}

/**
 * The home's files as an agent's checks see them: without those whose name is not valid UTF-8 (no agent writes one:
 * checks/home-names.ts reports each, and nothing reads it as the agent's). The source's reads are its own.
 */
function agentView(source: HomeCheckContext['source']): HomeCheckContext['source'] {
  if (!source.inventory.some((e) => e.rawPath !== undefined)) return source;
  return { ...source, inventory: source.inventory.filter((e) => e.rawPath === undefined) };
}

/** The context a home's checks run in; `emit` and `gone` go to the sinks given. */
function homeContext(
  home: FoundHome,
  source: HomeCheckContext['source'],
  sessions: readonly FoundSession[],
  options: AuditOptions,
  now: number,
  emit: HomeCheckContext['emit'],
  gone: HomeCheckContext['gone'],
  check: string,
  memo: Map<string, unknown>,
): HomeCheckContext {
  const format = formatNamed(home.format)!;
  const limits = { maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES };
  return {
    home,
    source: HOME_CHECKS.some((c) => c.id === check) ? source : agentView(source),
    sessions: sessionsIn(home, sessions),
    now,
    ...(options.maxDbBytes !== undefined ? { maxDbBytes: options.maxDbBytes } : {}),
    events(session, onEvent) {
      const s = fsSource(session);
      const artifacts = format.classify(s.inventory);
      const end = format.streamLog(s, artifacts, limits, (e, r) => onEvent(e, r, () => format.eventText(e, r)));
      return end !== undefined;
    },
    identity: (session) => format.identityOf?.(fsSource(session)),
    emit,
    gone,
    recalled: (onEntry) => recallFrom(home, source, sessions, options, () => true, onEntry, memo),
    memo<T>(key: string, make: () => T): T {
      if (!memo.has(key)) memo.set(key, make());
      return memo.get(key) as T;
    },
  };
}

/** The context a home's views read in: the checks' own, nothing emitted. */
export function homeViewContext(
  home: FoundHome,
  sessions: readonly FoundSession[],
  options: AuditOptions,
): HomeCheckContext {
  return homeContext(home, homeSource(home), sessions, options, Date.now(), noop, noop, 'views', new Map());
}

/**
 * What the home's files hold of the sessions `wanted` accepts (every check that can recall, in its files' order):
 * `timeline` and `transcript` of a session whose log is gone.
 */
export function recallHome(
  home: FoundHome,
  sessions: readonly FoundSession[],
  options: AuditOptions,
  wanted: (id: string) => boolean,
  onEntry: (e: RecalledEntry) => void,
): void {
  recallFrom(home, homeSource(home), sessions, options, wanted, onEntry);
}

/** What `recallHome` gives, from the home's files as `source` holds them (a capture of the store: the index). */
export function recallFrom(
  home: FoundHome,
  source: HomeCheckContext['source'],
  sessions: readonly FoundSession[],
  options: AuditOptions,
  wanted: (id: string) => boolean,
  onEntry: (e: RecalledEntry) => void,
  memo = new Map<string, unknown>(),
): void {
  for (const check of formatNamed(home.format)?.home?.checks ?? []) {
    if (!check.recall) continue;
    const ctx = homeContext(home, source, sessions, options, Date.now(), noop, noop, check.id, memo);
    check.recall(ctx, wanted, onEntry);
  }
}

export function auditHome(
  home: FoundHome,
  sessions: readonly FoundSession[],
  options: AuditOptions,
  now = Date.now(),
): HomeResult {
  const id = basename(home.display);
  const findings: Finding[] = [];
  const toolErrors: SessionResult['toolErrors'] = [];
  const ignored: Record<string, number> = {};
  const gone: GoneSession[] = [];
  const source = homeSource(home);
  // One read of each database per audit, shared by the checks' judgement and the recall the secret scan asks for.
  const memo = new Map<string, unknown>();
  for (const check of homeChecksFor(options, home.format)) {
    const emit: HomeCheckContext['emit'] = (code, location, message, opts) => {
      const meta = check.codes[code];
      if (!meta) throw new Error(`check ${check.id} emitted ${code}, which it does not declare`);
      if (options.ignore?.has(code)) {
        ignored[code] = (ignored[code] ?? 0) + 1;
        return;
      }
      findings.push(
        makeFinding({
          code,
          info: meta,
          check: check.id,
          session: { id, path: home.display },
          location,
          message,
          ...(opts?.severity ? { severity: opts.severity } : {}),
          ...(opts?.key !== undefined ? { key: opts.key } : {}),
          ...(options.severity ? { overrides: options.severity } : {}),
        }),
      );
    };
    try {
      check.run(homeContext(home, source, sessions, options, now, emit, (g) => gone.push(g), check.id, memo));
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      toolErrors.push({ session: id, check: check.id, message: `${err.message}\n${err.stack ?? ''}`.trim() });
    }
  }
  source.hashUnread();
  fingerprintSession(source, findings);
  const files = fileRecords(source);
  const result: SessionResult = {
    session: {
      id,
      path: home.display,
      format: home.format,
      files,
      findings: countBySeverity(findings),
      // Last, where the report's schema has it (a merged shard is written in the schema's order).
      kind: 'home',
    },
    findings,
    toolErrors,
  };
  if (Object.keys(ignored).length) result.ignored = ignored;
  return { result, gone: gone.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}
