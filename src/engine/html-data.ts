/**
 * What the HTML report shows besides the findings: each session's timeline and tool-call pairs, the bytes of the
 * line each finding points at, and the lineage views. Bounded whatever the input: events per session, events per
 * page, characters per event text and bytes per finding are capped (the page says what it left out).
 */
import { formatOf } from '../formats/registry.js';
import { lineageView, shownRoot } from '../lineage/view.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { AuditReport } from '../model/report.js';
import type { FoundSession } from '../model/found.js';
import type { FailOn, Finding } from '../model/finding.js';
import { DEFAULT_MAX_LINE_BYTES } from '../model/records.js';
import { fsSource } from '../read/source.js';
import type { FindingBytes, HtmlInput, HtmlSession, SessionExtras } from '../report/html-input.js';
import { buildTimeline } from './timeline.js';
import type { TimelineEvent } from '../timeline/model.js';
import { findSessions } from './tree.js';
import { pairRows } from './session.js';
import { opaque } from '../model/found.js';
import { redactJsonLine, redactor, redactText } from '../bundle/redact.js';
import { CUT_MARK } from '../secrets/cut.js';

/**
 * The page never shows a secret: the detectors of `bundle --redact` (and SECRET_IN_SESSION) hide each one, and a
 * secret reaching a `…` (a summary cut short) as far as it goes.
 */
const hidden = redactor();
const hideSecrets = (text: string): string => redactText(text, hidden, true).text;

/**
 * A finding's line with its secrets replaced (as JSON when it is UTF-8, byte for byte elsewhere). `cut`: the line
 * was cut short, so a secret reaching its end is hidden as far as it goes (marked as a cut while it is redacted).
 */
function hideInLine(b: FindingBytes, cut = false): FindingBytes {
  const raw = Buffer.from(b.bytes);
  const utf8 = raw.toString('utf8');
  const mark = cut ? CUT_MARK : '';
  const r = Buffer.from(utf8, 'utf8').equals(raw)
    ? redactJsonLine(utf8 + mark, hidden, true)
    : { ...redactText(raw.toString('latin1') + mark, hidden, true), latin1: true };
  if (!r.n) return b;
  const bytes = Buffer.from(cut ? r.text.slice(0, -CUT_MARK.length) : r.text, 'latin1' in r ? 'latin1' : 'utf8');
  return b.length !== undefined ? { bytes, length: bytes.length } : { bytes };
}

/** Events kept per session: the page stays usable; the JSONL timeline has them all. */
export const HTML_TIMELINE_CAP = 2000;
/** Events kept over the whole page; later sessions show their findings and tool calls, and say so. */
export const HTML_PAGE_EVENTS = 40_000;
/** Characters of an event's full text kept. */
export const HTML_TEXT_CHARS = 1000;
/** Bytes of a finding's line kept. */
export const HTML_LINE_BYTES = 16 * 1024;

function clipText(e: TimelineEvent): TimelineEvent {
  const text = hideSecrets(e.text);
  // A summary may cut a secret short where no detector knows it: made again from the text without secrets.
  const summary =
    text === e.text
      ? hideSecrets(e.summary)
      : text.length > e.summary.length
        ? `${text.replace(/\s+/g, ' ').slice(0, Math.max(1, e.summary.length - 1))}…`
        : text;
  return text.length > HTML_TEXT_CHARS
    ? {
        ...e,
        summary,
        text:
          `${text.slice(0, HTML_TEXT_CHARS)}… (${text.length - HTML_TEXT_CHARS} more characters: ` +
          '`session-audit timeline --format jsonl` has them all)',
      }
    : { ...e, summary, text };
}

function sessionExtras(found: FoundSession, maxLineBytes: number, room: { events: number }): SessionExtras {
  if (opaque(found)) return {};
  // Tool arguments and notes are session text: shown without their secrets.
  const pairs = pairRows(found).map((p) => ({
    ...p,
    name: hideSecrets(p.name),
    ...(p.args !== undefined ? { args: hideSecrets(p.args) } : {}),
    ...(p.note !== undefined ? { note: hideSecrets(p.note) } : {}),
  }));
  if (room.events <= 0) return pairs.length ? { pairs, timelineOmitted: true } : { timelineOmitted: true };
  const source = fsSource(found);
  const format = formatOf(found);
  const events: TimelineEvent[] = [];
  const cap = Math.min(HTML_TIMELINE_CAP, room.events);
  let dropped = 0;
  const { hasLog } = buildTimeline({ source, format }, { limits: { maxLineBytes } }, (e) => {
    if (events.length < cap) events.push(clipText(e));
    else dropped++;
  });
  room.events -= events.length;
  // A session with neither a log nor a conversation has nothing to show but its findings.
  if (!hasLog && pairs.length === 0) return {};
  const out: SessionExtras = { pairs };
  if (events.length) out.timeline = events;
  if (dropped) out.timelineTruncated = dropped;
  return out;
}

/** The bytes each finding points at (its line from its byte offset, or its byte range), per finding. */
function findingLines(report: AuditReport, found: ReadonlyMap<string, FoundSession>): Array<FindingBytes | undefined> {
  const out: Array<FindingBytes | undefined> = new Array(report.findings.length);
  const bySession = new Map<string, Array<{ f: Finding; i: number }>>();
  report.findings.forEach((f, i) => {
    if (f.location.file === '' || f.location.byteOffset === undefined) return;
    const list = bySession.get(f.sessionPath) ?? [];
    list.push({ f, i });
    bySession.set(f.sessionPath, list);
  });
  for (const [path, list] of bySession) {
    const s = found.get(path);
    if (!s || opaque(s)) continue;
    const source = fsSource(s);
    const byFile = new Map<string, Array<{ f: Finding; i: number }>>();
    for (const x of list) byFile.set(x.f.location.file, [...(byFile.get(x.f.location.file) ?? []), x]);
    for (const [file, xs] of byFile) {
      const r = source.readSpans(
        file,
        xs.map(({ f }) => {
          const len = f.location.byteLength;
          return {
            offset: f.location.byteOffset!,
            max: len !== undefined ? Math.min(len, HTML_LINE_BYTES) : HTML_LINE_BYTES + 1,
            line: len === undefined,
          };
        }),
      );
      if (!r.ok) continue;
      xs.forEach(({ f, i }, k) => {
        const bytes = r.value[k]!;
        const len = f.location.byteLength;
        if (len !== undefined) out[i] = hideInLine({ bytes, length: len });
        else if (bytes.length > HTML_LINE_BYTES)
          out[i] = hideInLine({ bytes: bytes.subarray(0, HTML_LINE_BYTES) }, true);
        else out[i] = hideInLine({ bytes, length: bytes.length });
      });
    }
  }
  return out;
}

export function htmlInput(
  paths: readonly string[],
  report: AuditReport,
  graphs: ReadonlyMap<string, LineageGraph>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  formatHint?: string,
  failOn?: FailOn,
  notes?: boolean,
): HtmlInput {
  const found = new Map(findSessions(paths, formatHint).map((f) => [f.display, f]));
  const room = { events: HTML_PAGE_EVENTS };
  // Each session is read again for its timeline and tool calls only when the page has room for them: the page asks
  // the worst first, and stops asking when its budget is spent.
  const sessions: HtmlSession[] = report.sessions.map((s) => {
    const f = found.get(s.path);
    return {
      id: s.id,
      path: s.path,
      format: s.format,
      ...(f ? { load: () => sessionExtras(f, maxLineBytes, room) } : {}),
    };
  });
  const audited = new Set(report.sessions.map((s) => s.path));
  const lineage = [...graphs]
    .filter(([, g]) => g.edges.length > 0)
    .map(([root, g]) => lineageView(shownRoot(root, g, audited), g, report.findings));
  return {
    report,
    sessions,
    lineage,
    title: paths.join(' '),
    lines: findingLines(report, found),
    ...(failOn !== undefined ? { failOn } : {}),
    ...(notes ? { notes: true } : {}),
  };
}
