/**
 * An agent's prompt history judged against the logs of its home (Claude Code's and Codex's `history.jsonl`, Grok's
 * per-project `prompt_history.jsonl`): every line is a prompt the user sent in a session, kept after the session's
 * log is deleted. A session the history knows whose log is not in the home is reported with what the history still
 * holds of it, graded by the agent's own cleanup: older than its period before the history's newest line, the
 * agent deleted it (a note); newer, it was deleted by hand or moved, or this copy of the home is partial (a warning:
 * a history line cannot tell which). A prompt of a session whose log is there, but which the log does not hold,
 * means the log was cut or rewritten after it. Ages are measured against the newest time the history records, never
 * the audit's clock, so a report is the same whenever it is made; a line dated after the audit's clock is said and
 * never taken as the newest.
 */
import type { HomeCheckContext, RecalledEntry } from '../../checks/define-home.js';
import { excerpt } from '../../checks/excerpt.js';
import type { Severity } from '../../model/finding.js';
import type { JsonlRecord } from '../../model/records.js';

/** What a history line says, as its agent writes it. */
export interface HistoryEntry {
  /** Absent: an older line that names no session (it cannot be linked). */
  sessionId?: string;
  timeMs?: number;
  text: string;
  cwd?: string;
  /** The line is not a prompt the log keeps as the user's message (a slash command, a shell line). */
  notPrompt?: boolean;
}

export interface HistoryRules<C extends string> {
  /** The history, relative to the home. */
  file: string;
  /** The agent's cleanup of old logs, in days and in words: "Claude Code's cleanupPeriodDays (30 days by default)". */
  cleanupDays: number;
  cleanup: string;
  /** What the agent's log of a session is called ("transcript", "rollout", "session log"). */
  logNoun: string;
  codes: {
    /** A session the history knows whose log is not in the home. */
    gone: C;
    /** A prompt of a session whose log is there that the log does not hold. */
    missing: C;
    /** Lines that name no session (an older version's). */
    legacy?: C;
    /** Lines dated after the audit's clock. */
    future: C;
    /** Lines that are not history entries (damaged, or of another shape). */
    unreadable: C;
  };
  /** A record of the history as an entry; undefined: not one (said as a line that cannot be read). */
  entry(value: unknown): HistoryEntry | undefined;
  /** The parts of a history text that must each be in one of the log's prompts (default: the whole text). */
  fragments?(text: string): string[];
  /**
   * The history's records when it is not JSONL (Gemini CLI's logs.json is one JSON array), each with the line it
   * starts on and its bytes; false when the file cannot be read. Default: the JSONL reader.
   */
  records?(onRecord: (r: JsonlRecord) => void): boolean;
}

const DAY_MS = 86_400_000;
/** A line dated this far after the audit's clock is in the future (clocks of two machines differ by less). */
const FUTURE_SLACK_MS = DAY_MS;
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

interface Place {
  line: number;
  byteOffset: number;
  byteLength: number;
}

interface Known {
  first: Place;
  prompts: number;
  firstMs?: number;
  lastMs?: number;
  cwd?: string;
  firstText: string;
  /** The prompts to find in the log (sessions whose log is in the home only). */
  lines: Array<Place & { text: string; timeMs?: number }>;
}

const KEPT = new Set(['JSONL_DUPLICATE_LINE', 'JSONL_UNTERMINATED_TAIL', 'JSONL_CRLF']);

export function judgeHistory<C extends string>(ctx: HomeCheckContext<C>, rules: HistoryRules<C>): void {
  const known = new Map<string, Known>();
  const legacy: Place[] = [];
  const future: Array<Place & { timeMs: number }> = [];
  const unreadable: Place[] = [];
  const delivered = new Set<number>();
  const damaged: Array<Place & { more: number }> = [];
  let newest: number | undefined;
  const onRecord = (r: JsonlRecord): void => {
    const place = { line: r.line, byteOffset: r.byteOffset, byteLength: r.byteLength };
    delivered.add(r.line);
    const e = rules.entry(r.value);
    if (!e) {
      unreadable.push(place);
      return;
    }
    if (e.timeMs !== undefined && e.timeMs > ctx.now + FUTURE_SLACK_MS) future.push({ ...place, timeMs: e.timeMs });
    else if (e.timeMs !== undefined && (newest === undefined || e.timeMs > newest)) newest = e.timeMs;
    if (e.sessionId === undefined || e.sessionId === '') {
      legacy.push(place);
      return;
    }
    let k = known.get(e.sessionId);
    if (!k) known.set(e.sessionId, (k = { first: place, prompts: 0, firstText: e.text, lines: [] }));
    k.prompts++;
    if (e.timeMs !== undefined) {
      if (k.firstMs === undefined || e.timeMs < k.firstMs) k.firstMs = e.timeMs;
      if (k.lastMs === undefined || e.timeMs > k.lastMs) k.lastMs = e.timeMs;
    }
    if (e.cwd !== undefined) k.cwd = e.cwd;
    if (!e.notPrompt && ctx.sessions.has(e.sessionId))
      k.lines.push({ ...place, text: e.text, ...(e.timeMs !== undefined ? { timeMs: e.timeMs } : {}) });
  };
  // Damage the reader reports beside a record it still delivers (a repeated line, the last line before its
  // newline, CR LF endings, a merged line split back into its records) is not a line the agent drops.
  const read = rules.records
    ? rules.records(onRecord)
    : ctx.source.streamJsonl(rules.file, {}, onRecord, (d) => {
        if (!KEPT.has(d.code))
          damaged.push({ line: d.line, byteOffset: d.byteOffset, byteLength: d.byteLength, more: d.count ?? 0 });
      }).ok;
  if (!read) return;
  let unreadableLines = unreadable.length;
  for (const d of damaged)
    if (d.more > 0) unreadableLines += d.more;
    else if (!delivered.has(d.line)) {
      unreadable.push(d);
      unreadableLines++;
    }
  unreadable.sort((a, b) => a.line - b.line);
  const at = (p: Place) => ({ file: rules.file, line: p.line, byteOffset: p.byteOffset, byteLength: p.byteLength });
  if (future.length)
    ctx.emit(
      rules.codes.future,
      at(future[0]!),
      `${count(future.length, 'line')} of ${rules.file} are dated after this audit's clock (the first, line ` +
        `${future[0]!.line}, at ${iso(future[0]!.timeMs)}): a clock set wrong, or lines written by hand. Their times ` +
        'are not taken as the newest the history records, which every age below is measured against.',
      { key: 'future' },
    );
  if (unreadable.length)
    ctx.emit(
      rules.codes.unreadable,
      at(unreadable[0]!),
      `${count(unreadableLines, 'line')} of ${rules.file} are not history entries the agent writes (the first ` +
        `at line ${unreadable[0]!.line}): cut or damaged lines, or lines another program wrote; the agent drops ` +
        'such lines when it reads its history, so what they held is not judged.',
      { key: 'unreadable' },
    );
  if (legacy.length && rules.codes.legacy !== undefined)
    ctx.emit(
      rules.codes.legacy,
      at(legacy[0]!),
      `${count(legacy.length, 'line')} of ${rules.file} name no session (an older version wrote them, the first ` +
        `at line ${legacy[0]!.line}): their prompts cannot be linked to a ${rules.logNoun}.`,
      { key: 'legacy' },
    );
  for (const [id, k] of [...known].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (ctx.sessions.has(id)) judgePresent(ctx, rules, id, k);
    else judgeGone(ctx, rules, id, k, newest);
  }
}

function judgeGone<C extends string>(
  ctx: HomeCheckContext<C>,
  rules: HistoryRules<C>,
  id: string,
  k: Known,
  newest: number | undefined,
): void {
  const shown = excerpt(k.firstText);
  const span =
    k.firstMs === undefined
      ? ''
      : k.firstMs === k.lastMs
        ? `, at ${iso(k.firstMs)}`
        : `, from ${iso(k.firstMs)} to ${iso(k.lastMs)}`;
  let severity: Severity = 'warning';
  let cause: string;
  if (k.lastMs === undefined || newest === undefined) {
    cause =
      `The history gives no time to measure it against ${rules.cleanup}: deleted by the agent, by hand, or this ` +
      'copy of the home is partial (a history line cannot tell which).';
  } else {
    const days = Math.floor((newest - k.lastMs) / DAY_MS);
    if (newest - k.lastMs > rules.cleanupDays * DAY_MS) {
      severity = 'note';
      cause =
        `Its last prompt is ${days} days before the newest line of the history (${day(newest)}), longer than ` +
        `${rules.cleanup}: the agent's own cleanup deletes such ${rules.logNoun}s.`;
    } else
      cause =
        `Its last prompt is ${count(days, 'day')} before the newest line of the history (${day(newest)}), within ` +
        `${rules.cleanup}, so the agent's cleanup had not deleted it: it was deleted by hand or moved, or this copy ` +
        'of the home is partial (a history line cannot tell which).';
  }
  ctx.emit(
    rules.codes.gone,
    { file: rules.file, line: k.first.line, byteOffset: k.first.byteOffset, byteLength: k.first.byteLength },
    `session ${id}: no ${rules.logNoun} of it is in this home, but ${rules.file} holds ` +
      `${count(k.prompts, 'prompt')} of it${span}${k.cwd !== undefined ? ` in ${k.cwd}` : ''}, the first ` +
      `"${shown}". ${cause}`,
    { key: id, severity },
  );
  ctx.gone({
    id,
    source: rules.file,
    prompts: k.prompts,
    ...(k.firstMs !== undefined ? { firstAt: iso(k.firstMs)! } : {}),
    ...(k.lastMs !== undefined ? { lastAt: iso(k.lastMs)! } : {}),
    ...(k.cwd !== undefined ? { cwd: k.cwd } : {}),
    ...(shown !== '' ? { excerpt: shown } : {}),
  });
}

function judgePresent<C extends string>(ctx: HomeCheckContext<C>, rules: HistoryRules<C>, id: string, k: Known): void {
  if (k.lines.length === 0) return;
  const prompts: string[] = [];
  let lastMs: number | undefined;
  const logs = ctx.sessions.get(id)!;
  let readable = false;
  for (const s of logs)
    readable =
      ctx.events(s, (e, _r, text) => {
        if (e.timeMs !== undefined && (lastMs === undefined || e.timeMs > lastMs)) lastMs = e.timeMs;
        if (e.kind === 'user_prompt') prompts.push(norm(text()));
      }) || readable;
  // A log that cannot be read is its own finding (the session's audit says so): nothing to compare with.
  if (!readable) return;
  for (const p of k.lines) {
    const parts = (rules.fragments?.(p.text) ?? [p.text]).map(norm).filter((f) => f !== '');
    if (parts.length === 0 || parts.every((f) => prompts.some((q) => q.includes(f)))) continue;
    const after = p.timeMs !== undefined && lastMs !== undefined && p.timeMs > lastMs;
    ctx.emit(
      rules.codes.missing,
      { file: rules.file, line: p.line, byteOffset: p.byteOffset, byteLength: p.byteLength },
      `session ${id}: the prompt at line ${p.line} of ${rules.file} ("${excerpt(p.text)}"` +
        `${p.timeMs !== undefined ? `, ${iso(p.timeMs)}` : ''}) is not among the user messages of its ` +
        `${rules.logNoun}${after ? `, which ends before it (${iso(lastMs)})` : ''}: the ${rules.logNoun} was cut or ` +
        'rewritten after the prompt was sent (the agent only appends to it), or the prompt never reached it.',
      { key: id },
    );
  }
}

/** Every line of the history naming a session `wanted` accepts, as what it recalls of that session ('': none). */
export function recallHistory<C extends string>(
  ctx: HomeCheckContext<C>,
  rules: HistoryRules<C>,
  wanted: (id: string) => boolean,
  onEntry: (e: RecalledEntry) => void,
): void {
  const onRecord = (r: JsonlRecord): void => {
    const e = rules.entry(r.value);
    // A line that names no session (an older version's) is the entry of session '' (define-home.ts).
    const id = e?.sessionId ?? '';
    if (!e || !wanted(id)) return;
    onEntry({
      session: id,
      file: rules.file,
      line: r.line,
      byteOffset: r.byteOffset,
      ...(e.timeMs !== undefined ? { timeMs: e.timeMs } : {}),
      kind: e.notPrompt ? 'note' : 'user_prompt',
      text: e.text,
    });
  };
  if (rules.records) rules.records(onRecord);
  else ctx.source.streamJsonl(rules.file, {}, onRecord, () => {});
}
