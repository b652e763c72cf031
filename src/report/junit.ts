/**
 * JUnit XML for CI test-report widgets (GitLab, Jenkins, Azure): one testsuite per session, one testcase per
 * check (classname = session id, name = check id); a check with findings at or above --fail-on fails, its
 * failure listing every such finding. Names never collide: a session id seen twice gets a `#2` suffix.
 */
import { SEVERITY_RANK, type Finding } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import type { FailOn } from '../model/finding.js';
import { escapeText } from './escape.js';

/**
 * XML 1.0 text: markup escaped; control characters (C0 but newline and tab, DEL, C1), bidi and invisible format
 * characters, and what XML cannot hold (lone surrogates, U+FFFE/U+FFFF) shown as visible escapes.
 */
export function xmlText(s: string): string {
  return s
    .split('\n')
    .map((line) => escapeText(line))
    .join('\n')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[\ufffe\uffff]/g,
      (c) => `\\u{${c.charCodeAt(0).toString(16)}}`,
    );
}

const loc = (f: Finding): string => {
  const l = f.location;
  const line = l.line !== undefined ? `:${l.line}` : '';
  const offset = l.byteOffset !== undefined ? ` @${l.byteOffset}` : '';
  return `${l.file === '' ? '.' : l.file}${line}${offset}${l.pointer ? ` ${l.pointer}` : ''}`;
};

/** `checksFor(format)`: the ids of the checks that ran on a session of that format (each is a testcase). */
export function renderJunit(
  report: AuditReport,
  failOn: FailOn,
  checksFor: (format: string) => readonly string[],
): string {
  const limit = failOn === 'never' ? -1 : SEVERITY_RANK[failOn];
  const gates = (f: Finding): boolean => SEVERITY_RANK[f.severity] <= limit;
  const bySession = new Map<string, Finding[]>();
  for (const f of report.findings) bySession.set(f.sessionPath, [...(bySession.get(f.sessionPath) ?? []), f]);
  const idCount = new Map<string, number>();
  const suites: string[] = [];
  let totalTests = 0;
  let totalFailures = 0;
  for (const s of report.sessions) {
    const n = (idCount.get(s.id) ?? 0) + 1;
    idCount.set(s.id, n);
    const classname = n === 1 ? s.id : `${s.id}#${n}`;
    const findings = bySession.get(s.path) ?? [];
    const checks = [...new Set([...checksFor(s.format), ...findings.map((f) => f.check)])].sort();
    const cases: string[] = [];
    let failures = 0;
    for (const check of checks) {
      const mine = findings.filter((f) => f.check === check);
      const failing = mine.filter(gates);
      const other = mine.filter((f) => !gates(f));
      let body = '';
      if (failing.length) {
        failures++;
        const codes = [...new Set(failing.map((f) => f.code))].join(', ');
        const detail = failing.map((f) => `${f.severity} ${f.code} ${loc(f)}: ${f.message}`).join('\n');
        const first = failing[0]!;
        const n = `${failing.length} finding${failing.length === 1 ? '' : 's'}`;
        const message = `${n} at or above ${failOn}: ${first.code} ${loc(first)}: ${first.message}`.slice(0, 500);
        body += `\n      <failure type="${xmlText(codes)}" message="${xmlText(message)}">${xmlText(detail)}</failure>`;
      }
      if (other.length) {
        const lines = other.map((f) => `${f.severity} ${f.code} ${loc(f)}: ${f.message}`).join('\n');
        body += `\n      <system-out>${xmlText(lines)}</system-out>`;
      }
      cases.push(
        `    <testcase classname="${xmlText(classname)}" name="${xmlText(check)}" ` +
          `file="${xmlText(s.path)}"${body ? `>${body}\n    </testcase>` : ' />'}`,
      );
    }
    totalTests += checks.length;
    totalFailures += failures;
    suites.push(
      `  <testsuite name="${xmlText(s.path)}" tests="${checks.length}" failures="${failures}" errors="0" ` +
        `skipped="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  // Findings of no session of the report (a root's, or a report put together by hand) are a suite of their own: a
  // failing gate is never a file that says failures="0".
  const sessionPaths = new Set(report.sessions.map((s) => s.path));
  const outside = report.findings.filter((f) => !sessionPaths.has(f.sessionPath));
  if (outside.length) {
    const byCheck = new Map<string, Finding[]>();
    for (const f of outside) byCheck.set(f.check, [...(byCheck.get(f.check) ?? []), f]);
    const cases: string[] = [];
    let failures = 0;
    for (const [check, mine] of [...byCheck].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const failing = mine.filter(gates);
      const lines = mine.map((f) => `${f.severity} ${f.code} ${f.sessionPath} ${loc(f)}: ${f.message}`).join('\n');
      let body = '';
      if (failing.length) {
        failures++;
        const first = failing[0]!;
        const message = `${failing.length} finding${failing.length === 1 ? '' : 's'} at or above ${failOn}: ${
          first.code
        } ${first.sessionPath} ${loc(first)}: ${first.message}`.slice(0, 500);
        const codes = [...new Set(failing.map((f) => f.code))].join(', ');
        body = `\n      <failure type="${xmlText(codes)}" message="${xmlText(message)}">${xmlText(lines)}</failure>`;
      } else body = `\n      <system-out>${xmlText(lines)}</system-out>`;
      cases.push(`    <testcase classname="session-audit" name="${xmlText(check)}">${body}\n    </testcase>`);
    }
    totalTests += cases.length;
    totalFailures += failures;
    suites.push(
      `  <testsuite name="findings outside the sessions audited" tests="${cases.length}" failures="${failures}" ` +
        `errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  const errors = report.toolErrors.length;
  const toolCase = (e: AuditReport['toolErrors'][number], i: number): string =>
    `    <testcase classname="session-audit" name="${xmlText(`internal error ${i + 1}: ${e.check} on ${e.session}`)}"` +
    '>' +
    '\n' +
    `      <error message="${xmlText(e.message.split('\n')[0] ?? '')}">${xmlText(e.message)}</error>\n` +
    '    </testcase>';
  const toolSuite = errors
    ? '\n  <testsuite name="session-audit internal errors" ' +
      `tests="${errors}" failures="0" errors="${errors}" skipped="0">\n` +
      `${report.toolErrors.map(toolCase).join('\n')}\n  </testsuite>`
    : '';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="session-audit ${xmlText(report.command)}" ` +
    `tests="${totalTests + errors}" failures="${totalFailures}" ` +
    `errors="${errors}">\n${suites.join('\n')}${toolSuite}\n</testsuites>\n`
  );
}
