/**
 * What `grok -p` printed (formats/grok-build.md §5.2): `--output-format json` (one object with sessionId and
 * stopReason) or `streaming-json` (one event per line, tagged `type`; the session id is only on the final `end`).
 */
import { isUtf8 } from 'node:buffer';
import { tooDeep } from '../../read/json-depth.js';
import { JsonlScanner } from '../../read/jsonl.js';

export interface HeadlessTool {
  id: string;
  status?: string;
  title?: string;
  /** Line of the last event about this tool. */
  line: number;
}

export interface HeadlessRun {
  format: 'json' | 'streaming-json' | 'unknown';
  sessionId?: string;
  stopReason?: string;
  /** The run printed its terminal object (`end` in streaming-json; the result object in json). */
  ended: boolean;
  error?: string;
  tools: HeadlessTool[];
  lines: number;
  /** Lines that did not parse (a stream cut off mid-line). */
  damaged: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** U1 printed Rust Debug names ("EndTurn"); U2 prints snake_case. */
export function normalizeStopReason(r: string | undefined): string | undefined {
  if (r === undefined) return undefined;
  return /^[A-Z]/.test(r) ? r.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase() : r;
}

export function parseHeadless(bytes: Buffer): HeadlessRun {
  const run: HeadlessRun = { format: 'unknown', ended: false, tools: [], lines: 0, damaged: 0 };
  // A document nested too deep is not parsed whole; the JSONL reader below reports its lines.
  if (isUtf8(bytes) && !tooDeep(bytes)) {
    try {
      const v = JSON.parse(bytes.toString('utf8')) as unknown;
      if (isObj(v) && (('sessionId' in v && 'stopReason' in v) || v.type === 'error')) {
        run.format = 'json';
        run.lines = 1;
        run.ended = v.type !== 'error';
        run.sessionId = s(v.sessionId);
        run.stopReason = normalizeStopReason(s(v.stopReason));
        if (v.type === 'error') run.error = s(v.message) ?? 'error';
        return run;
      }
    } catch {
      /* not a single JSON document: try JSON lines */
    }
  }
  const tools = new Map<string, HeadlessTool>();
  const scanner = new JsonlScanner(
    (r) => {
      const v = r.value;
      if (!isObj(v) || typeof v.type !== 'string') return;
      run.format = 'streaming-json';
      if (v.type === 'tool_call' || v.type === 'tool_call_update') {
        const id = s(v.toolCallId);
        if (id === undefined) return;
        const t = tools.get(id) ?? { id, line: r.line };
        tools.delete(id);
        t.line = r.line;
        const status = s(v.status);
        if (status !== undefined) t.status = status;
        const title = s(v.title);
        if (title !== undefined) t.title = title;
        tools.set(id, t);
      } else if (v.type === 'end') {
        run.ended = true;
        run.sessionId = s(v.sessionId);
        run.stopReason = normalizeStopReason(s(v.stopReason));
      } else if (v.type === 'error') {
        run.error = s(v.message) ?? 'error';
      }
    },
    (d) => {
      if (d.code !== 'JSONL_BLANK_LINE' && d.code !== 'JSONL_CRLF' && d.code !== 'JSONL_UNTERMINATED_TAIL')
        run.damaged++;
    },
  );
  scanner.push(bytes);
  run.lines = scanner.end().lines;
  run.tools = [...tools.values()].sort((a, b) => a.line - b.line);
  return run;
}
