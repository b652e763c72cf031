/**
 * A transcript entry as a block every human format draws: a title, where it happened, a tone, and body lines each
 * with a style (prose, code, a removed or added line, a hunk header, a dim note). Long bodies are cut here, once,
 * so that the terminal, Markdown and HTML say the same thing about what they left out.
 */
import { patchFiles, type ResultStatus, type TranscriptView } from '../model/transcript-view.js';
import type { TranscriptAt, TranscriptEntry } from '../model/transcript.js';

export type LineStyle = 'text' | 'code' | 'del' | 'add' | 'hunk' | 'dim' | 'output';
export type Tone = 'user' | 'agent' | 'tool' | 'ok' | 'bad' | 'warn' | 'dim' | 'divider' | 'session';

export interface BodyLine {
  text: string;
  style: LineStyle;
}

export interface Block {
  kind: TranscriptEntry['type'];
  title: string;
  tone: Tone;
  where: string;
  depth: number;
  body: BodyLine[];
  /** The body goes in one code block (commands, outputs, diffs), else prose. */
  code: boolean;
  /** A Markdown/HTML language hint for a code body. */
  lang?: string;
}

export interface BlockOptions {
  /** Lines of an output, a written file or one side of an edit shown before the rest is counted (0: all). */
  maxLines: number;
  thinking: boolean;
}

/** The default cut: a reader sees the start of every output, `--full` the whole. */
export const DEFAULT_MAX_LINES = 12;

const STATUS_WORDS: Record<ResultStatus, string> = {
  completed: 'completed',
  failed: 'failed',
  rejected: 'rejected by the user',
  cancelled: 'cancelled',
  placeholder: 'placeholder the agent wrote itself (the tool did not answer)',
};
const STATUS_TONE: Record<ResultStatus, Tone> = {
  completed: 'ok',
  failed: 'bad',
  rejected: 'bad',
  cancelled: 'warn',
  placeholder: 'warn',
};
const FATE_WORDS = {
  interrupted: 'interrupted: never answered',
  abandoned: 'abandoned: the response ended without running it',
  rewound: 'rewound before it was answered',
} as const;

/** `line N · time`, with the flags of an entry off the live branch. */
export function whereOf(at: TranscriptAt): string {
  const parts: string[] = [];
  if (at.line !== undefined) parts.push(`line ${at.line}`);
  if (at.time !== undefined) parts.push(at.time.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''));
  if (at.rewound) parts.push('rewound');
  return parts.join(' · ');
}

/** `lines`, the first `max` of them and a dim count of the rest. */
function cut(lines: string[], max: number, style: LineStyle, what = 'line'): BodyLine[] {
  const shown = max > 0 && lines.length > max ? lines.slice(0, max) : lines;
  const out = shown.map((text) => ({ text, style }));
  const left = lines.length - shown.length;
  if (left > 0) out.push({ text: `… ${left} more ${what}${left === 1 ? '' : 's'} (--full shows all)`, style: 'dim' });
  return out;
}

const linesOf = (s: string): string[] => {
  const l = s.replace(/\r\n/g, '\n').split('\n');
  if (l.length > 1 && l[l.length - 1] === '') l.pop();
  return l;
};

function compactJson(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return String(v);
  }
}

/** The body of a call, rendered for what the tool is. */
function callBody(v: TranscriptView, max: number): { body: BodyLine[]; lang?: string } {
  switch (v.kind) {
    case 'shell': {
      const body = cut(linesOf(`$ ${v.command ?? ''}`), max, 'code');
      if (v.cwd !== undefined) body.unshift({ text: `in ${v.cwd}`, style: 'dim' });
      return { body, lang: 'sh' };
    }
    case 'edit': {
      const body: BodyLine[] = [{ text: v.path ?? '', style: 'hunk' }];
      if (v.old !== undefined)
        body.push(
          ...cut(linesOf(v.old), max, 'del').map((l) => (l.style === 'del' ? { ...l, text: `- ${l.text}` } : l)),
        );
      if (v.new !== undefined)
        body.push(
          ...cut(linesOf(v.new), max, 'add').map((l) => (l.style === 'add' ? { ...l, text: `+ ${l.text}` } : l)),
        );
      return { body, lang: 'diff' };
    }
    case 'write': {
      const lines = linesOf(v.content ?? '');
      return {
        body: [
          { text: `${v.path ?? ''} (${lines.length} line${lines.length === 1 ? '' : 's'} written)`, style: 'hunk' },
          ...cut(lines, max, 'add').map((l) => (l.style === 'add' ? { ...l, text: `+ ${l.text}` } : l)),
        ],
        lang: 'diff',
      };
    }
    case 'patch': {
      const body: BodyLine[] = [];
      for (const f of patchFiles(v.patch ?? '')) {
        body.push({ text: `${f.action} ${f.path}`, style: 'hunk' });
        const styled = f.lines.map((t) => ({
          text: t,
          style: (t.startsWith('+')
            ? 'add'
            : t.startsWith('-')
              ? 'del'
              : t.startsWith('@@')
                ? 'hunk'
                : 'code') as LineStyle,
        }));
        const shown = max > 0 ? styled.slice(0, max) : styled;
        body.push(...shown);
        if (shown.length < styled.length)
          body.push({ text: `… ${styled.length - shown.length} more lines (--full shows all)`, style: 'dim' });
      }
      if (!body.length) body.push(...cut(linesOf(v.patch ?? ''), max, 'code'));
      return { body, lang: 'diff' };
    }
    case 'read':
      return { body: [{ text: v.path ?? '', style: 'code' }] };
    case 'fetch':
      return { body: [{ text: v.url ?? compactJson(v.args), style: 'code' }] };
    default:
      return { body: cut(linesOf(compactJson(v.args)), max, 'code'), lang: 'json' };
  }
}

const KIND_WORDS: Record<TranscriptView['kind'], string> = {
  shell: 'command',
  edit: 'edit',
  write: 'write',
  read: 'read',
  patch: 'patch',
  fetch: 'fetch',
  other: 'call',
};

/** The block of one entry (undefined: thinking folded away shows as a one-line block). */
export function blockOf(e: TranscriptEntry, o: BlockOptions): Block {
  const base = { kind: e.type, where: whereOf(e.at), depth: e.at.depth, code: false };
  switch (e.type) {
    case 'session':
      return {
        ...base,
        title:
          e.parent !== undefined
            ? `subagent ${e.parent} (session ${e.at.session})`
            : `session ${e.at.session}${e.agent ? ` (${e.agent})` : ''}`,
        tone: 'session',
        where: e.path,
        body: [],
      };
    case 'divider':
      return { ...base, title: e.text, tone: 'divider', body: [] };
    case 'prompt':
      return { ...base, title: 'user', tone: 'user', body: linesOf(e.text).map((text) => ({ text, style: 'text' })) };
    case 'reply':
      return { ...base, title: 'agent', tone: 'agent', body: linesOf(e.text).map((text) => ({ text, style: 'text' })) };
    case 'thinking': {
      const lines = linesOf(e.text);
      if (!o.thinking)
        return {
          ...base,
          title: `thinking (${lines.length} line${lines.length === 1 ? '' : 's'} folded, --thinking shows it)`,
          tone: 'dim',
          body: [],
        };
      return { ...base, title: 'thinking', tone: 'dim', body: lines.map((text) => ({ text, style: 'dim' })) };
    }
    case 'notice': {
      // A notice of several lines (the text a home's file kept, recalled) shows its first as the title.
      const [title = '', ...rest] = linesOf(e.text);
      return { ...base, title, tone: 'dim', body: rest.map((text) => ({ text, style: 'dim' })) };
    }
    case 'call': {
      const { body, lang } = callBody(e.view, o.maxLines);
      return {
        ...base,
        title: `${KIND_WORDS[e.view.kind]} ${e.view.tool}`,
        tone: e.fate ? 'bad' : 'tool',
        body,
        code: true,
        ...(lang ? { lang } : {}),
        ...(e.fate ? { where: `${base.where} · ${FATE_WORDS[e.fate]}` } : {}),
      };
    }
    case 'result': {
      const exit = e.exitCode !== undefined ? ` (exit ${e.exitCode})` : '';
      const lines = e.output === '' ? [] : linesOf(e.output);
      return {
        ...base,
        title: `${STATUS_WORDS[e.status]}${exit}${e.tool ? ` · ${e.tool}` : ''}`,
        tone: STATUS_TONE[e.status],
        body: cut(lines, o.maxLines, 'output'),
        code: true,
      };
    }
    case 'finding':
      return {
        ...base,
        title: `${e.severity} ${e.code}`,
        tone: e.severity === 'error' ? 'bad' : e.severity === 'warning' ? 'warn' : 'dim',
        where: e.at.line !== undefined ? `${e.at.file}:${e.at.line}` : e.at.file || 'the session',
        body: [{ text: e.message, style: 'text' }],
      };
  }
}
