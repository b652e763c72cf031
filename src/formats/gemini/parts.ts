/** What the parts of a Gemini message say: its text, its calls, its function responses (formats/gemini-cli.md §3). */
import { isObj, str, type Obj } from '../shared/events.js';

/** The CLI's marker of a cancelled call (`[Operation Cancelled] Reason: …`). */
export const CANCELLED = '[Operation Cancelled]';
/** The fixed id and text of the session-context turn (v0.44+). */
export const CONTEXT_ID = 'd04923d38bb0f6017037e74183378ef4';
export const CONTEXT = /^\s*<session_context>/;

const list = (c: unknown): unknown[] => (Array.isArray(c) ? c : c === undefined || c === null ? [] : [c]);

/** The text of a content (`PartListUnion`), thought parts left out unless asked for. */
export function contentText(c: unknown, thoughts = false): string {
  return list(c)
    .map((p) => {
      if (typeof p === 'string') return p;
      if (!isObj(p)) return '';
      if (typeof p.text === 'string') return p.thought === true && !thoughts ? '' : p.text;
      if (isObj(p.inlineData)) return `[${str(p.inlineData.mimeType) ?? 'inline data'}]`;
      if (isObj(p.fileData)) return `[file ${str(p.fileData.fileUri) ?? ''}]`;
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

export interface Response {
  id: string;
  name: string;
  text: string;
  error: boolean;
}

/** The output or error a functionResponse carries, as text. */
function responseText(r: Obj): { text: string; error: boolean } {
  const resp = r.response;
  if (isObj(resp)) {
    if (resp.error !== undefined)
      return { text: typeof resp.error === 'string' ? resp.error : JSON.stringify(resp.error), error: true };
    if (resp.output !== undefined)
      return { text: typeof resp.output === 'string' ? resp.output : JSON.stringify(resp.output), error: false };
    return { text: JSON.stringify(resp), error: false };
  }
  return { text: typeof resp === 'string' ? resp : '', error: false };
}

/** The functionResponse parts of a content or of a call's `result`. */
export function responses(c: unknown): Response[] {
  return list(c)
    .filter(isObj)
    .flatMap((p) => {
      const r = p.functionResponse;
      if (!isObj(r)) return [];
      return [{ id: str(r.id) ?? '', name: str(r.name) ?? '', ...responseText(r) }];
    });
}

export interface Call {
  id: string;
  name: string;
  args: unknown;
  /** The toolCalls entry (absent: a functionCall part of a snapshot's content only). */
  entry?: Obj;
}

/** The calls a gemini message makes: its toolCalls entries, and functionCall parts of its content they lack. */
export function callsOf(m: Obj): Call[] {
  const out: Call[] = [];
  const seen = new Set<string>();
  if (Array.isArray(m.toolCalls))
    for (const e of m.toolCalls.filter(isObj)) {
      const id = str(e.id) ?? '';
      seen.add(id);
      out.push({ id, name: str(e.name) ?? '?', args: e.args ?? {}, entry: e });
    }
  for (const p of list(m.content).filter(isObj)) {
    const f = p.functionCall;
    if (!isObj(f)) continue;
    const id = str(f.id) ?? '';
    if (id !== '' && seen.has(id)) continue;
    seen.add(id);
    out.push({ id, name: str(f.name) ?? '?', args: f.args ?? {} });
  }
  return out;
}

/** The thoughts of a gemini message, as text (`subject: description`). */
export function thoughtsText(m: Obj): string {
  const fromList = Array.isArray(m.thoughts)
    ? m.thoughts
        .filter(isObj)
        .map((t) => [str(t.subject), str(t.description)].filter(Boolean).join(': '))
        .filter(Boolean)
    : [];
  const fromParts = list(m.content)
    .filter(isObj)
    .filter((p) => p.thought === true && typeof p.text === 'string')
    .map((p) => p.text as string);
  return [...fromList, ...fromParts].join('\n');
}

/** A user turn the CLI counts as a prompt (sessionUtils: not empty, not a slash or ? command, not context). */
export function isPrompt(m: Obj): boolean {
  if (m.type !== 'user' || responses(m.content).length) return false;
  const t = contentText(m.content).trimStart();
  return t !== '' && !/^(\/|\?|<session_context>|<hook_context>)/.test(t);
}

/** The directory the session-context turn names first (its workspace, or the older "working in" sentence). */
export function contextCwd(text: string): string | undefined {
  return (
    /\*\*Workspace Directories:\*\*\s*\n\s*-\s+(\S[^\n]*)/.exec(text)?.[1]?.trim() ??
    /currently working in the directory: (\S[^\n]*)/.exec(text)?.[1]?.trim()
  );
}
