/**
 * SARIF 2.1.0 (OASIS): one run; rules from the finding catalog; one result per finding with one physical
 * location (a relative URI under a base id, see sarif-places.ts; startLine, byteOffset/byteLength), partial
 * fingerprints, the audited files' sha-256 in run.artifacts, and the tool's own problems and what the
 * configuration hid as toolExecutionNotifications. GitHub code scanning accepts at most 25,000 results per run:
 * past that, the most severe are kept and a notification says so. No informationUri: the tool has no public home
 * to point at.
 */
import { join } from 'node:path';
import { TOOL_VERSION } from '../version.js';
import { catalog } from '../checks/catalog.js';
import { SEVERITY_RANK, type Finding } from '../model/finding.js';
import type { AuditReport, SessionReport } from '../model/report.js';
import { configurationLines } from './human.js';
import { sarifBases, type SarifPlaces } from './sarif-places.js';

export { pathUri } from './sarif-places.js';

export const SARIF_MAX_RESULTS = 25_000;

interface SarifOptions {
  /** Where the inputs are (default: the working directory, with every session's path as an input). */
  places?: SarifPlaces;
}

/** The directory a session's file paths are relative to. */
const filesDir = (s: Pick<SessionReport, 'path' | 'dir'>): string => s.dir ?? s.path;

export function renderSarif(report: AuditReport, options: SarifOptions = {}): string {
  const places = options.places ?? { cwd: process.cwd(), inputs: report.sessions.map(filesDir) };
  const bases = sarifBases(places);
  const sessionDir = new Map(report.sessions.map((s) => [s.path, filesDir(s)]));
  const locate = (sessionPath: string, file: string) =>
    file === ''
      ? bases.locate(sessionDir.get(sessionPath) ?? sessionPath, true)
      : bases.locate(join(sessionDir.get(sessionPath) ?? sessionPath, file));
  const key = (l: { uri: string; uriBaseId?: string }): string => `${l.uriBaseId ?? ''}\u0000${l.uri}`;
  const rules = catalog();
  const ruleIndex = new Map<string, number>(rules.map((r, i) => [r.code, i]));
  const artifacts: Array<{
    location: { uri: string; uriBaseId?: string };
    length?: number;
    hashes?: Record<string, string>;
    roles?: string[];
  }> = [];
  const artifactIndex = new Map<string, number>();
  for (const s of report.sessions) {
    for (const f of s.files) {
      if (f.type !== 'file') continue;
      const location = locate(s.path, f.path);
      if (artifactIndex.has(key(location))) continue;
      artifactIndex.set(key(location), artifacts.length);
      artifacts.push({
        location,
        ...(f.size !== undefined ? { length: f.size } : {}),
        ...(f.sha256 ? { hashes: { 'sha-256': f.sha256 } } : {}),
        roles: ['analysisTarget'],
      });
    }
  }

  let kept: readonly Finding[] = report.findings;
  const notifications: Array<{
    level: 'error' | 'warning' | 'note';
    message: { text: string };
    descriptor?: { id: string };
  }> = [];
  if (kept.length > SARIF_MAX_RESULTS) {
    // Stable: by severity, then the report's own order.
    const ranked = kept
      .map((f, i) => ({ f, i }))
      .sort((a, b) => SEVERITY_RANK[a.f.severity] - SEVERITY_RANK[b.f.severity] || a.i - b.i);
    kept = ranked
      .slice(0, SARIF_MAX_RESULTS)
      .sort((a, b) => a.i - b.i)
      .map((x) => x.f);
    notifications.push({
      level: 'warning',
      message: {
        text:
          `${report.findings.length} findings exceed the ${SARIF_MAX_RESULTS} results GitHub accepts per run: ` +
          `the ${SARIF_MAX_RESULTS} most severe are included, ${report.findings.length - SARIF_MAX_RESULTS} less ` +
          `severe ones are left out (the JSON report has them all).`,
      },
      descriptor: { id: 'results-truncated' },
    });
  }
  for (const e of report.toolErrors)
    notifications.push({
      level: 'error',
      message: {
        text: `internal error in check ${e.check} on session ${e.session}: ${e.message.split('\n')[0] ?? ''}`,
      },
      descriptor: { id: 'internal-error' },
    });
  for (const n of configurationLines(report)) notifications.push({ level: 'note', message: { text: n } });

  // A result points at a file code scanning can open: a directory's, or a file's that is not there (a transcript
  // found missing), goes to the session's first audited file, its message saying what it is about.
  const openable = (t: string): boolean => t === 'file' || t === 'symlink';
  const inventory = new Map(report.sessions.map((s) => [s.path, s.files]));
  const firstFile = (sessionPath: string): string | undefined =>
    inventory.get(sessionPath)?.find((x) => openable(x.type))?.path;
  const fallback = report.sessions.find((s) => firstFile(s.path) !== undefined)?.path;
  const placeOf = (f: Finding): { place: { uri: string; uriBaseId?: string }; about?: string } => {
    const file = f.location.file;
    const entry = file === '' ? undefined : inventory.get(f.sessionPath)?.find((x) => x.path === file);
    if (entry && openable(entry.type)) return { place: locate(f.sessionPath, file) };
    const about =
      file === ''
        ? `the session ${f.sessionPath}`
        : entry
          ? `${file}, a ${entry.type} in the session`
          : `${file}, which is not there`;
    const home = firstFile(f.sessionPath) !== undefined ? f.sessionPath : fallback;
    // Nothing audited is a file: the directory it is (code scanning cannot open it, but there is nothing else).
    return { place: home !== undefined ? locate(home, firstFile(home)!) : locate(f.sessionPath, ''), about };
  };
  const results = kept.map((f) => {
    const { place, about } = placeOf(f);
    const region: Record<string, number> = {};
    if (about === undefined && f.location.line !== undefined) region.startLine = f.location.line;
    if (about === undefined && f.location.byteOffset !== undefined) region.byteOffset = f.location.byteOffset;
    if (about === undefined && f.location.byteLength !== undefined && f.location.byteOffset !== undefined)
      region.byteLength = f.location.byteLength;
    const artifactLocation: { uri: string; uriBaseId?: string; index?: number } = { ...place };
    const idx = artifactIndex.get(key(place));
    if (idx !== undefined) artifactLocation.index = idx;
    return {
      ruleId: f.code,
      ...(ruleIndex.has(f.code) ? { ruleIndex: ruleIndex.get(f.code)! } : {}),
      level: f.severity,
      message: { text: about === undefined ? f.message : `${f.message} (about ${about})` },
      locations: [
        {
          physicalLocation: { artifactLocation, ...(Object.keys(region).length ? { region } : {}) },
          ...(f.location.pointer
            ? { logicalLocations: [{ fullyQualifiedName: f.location.pointer, kind: 'member' }] }
            : {}),
        },
      ],
      partialFingerprints: { 'sessionAudit/v2': f.fingerprint },
      properties: { session: f.session, check: f.check },
    };
  });

  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'session-audit',
            version: TOOL_VERSION,
            semanticVersion: TOOL_VERSION,
            rules: rules.map((r) => ({
              id: r.code,
              name: r.code
                .toLowerCase()
                .split('_')
                .map((w) => w[0]!.toUpperCase() + w.slice(1))
                .join(''),
              shortDescription: { text: r.title },
              fullDescription: { text: r.help },
              help: {
                text: `${r.title}. ${r.help} Run \`session-audit checks ${r.code}\` for more.`,
                markdown: `**${r.title}.** ${r.help}\n\n\`session-audit checks ${r.code}\``,
              },
              defaultConfiguration: { level: r.severity },
              properties: { tags: ['session-integrity', r.check], check: r.check },
            })),
          },
        },
        originalUriBaseIds: bases.originalUriBaseIds,
        invocations: [
          { executionSuccessful: report.toolErrors.length === 0, toolExecutionNotifications: notifications },
        ],
        artifacts,
        results,
        columnKind: 'unicodeCodePoints',
        properties: { command: report.command, summary: report.summary },
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
