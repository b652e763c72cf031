/**
 * Hostile content for the robustness tests (issue 9 §1b, §3): strings that try to drive a terminal (ANSI CSI,
 * OSC title / hyperlink / clipboard sequences, 8-bit C1 controls), reorder what a reviewer reads (bidi
 * overrides and isolates), hide text (NUL, zero-width, BOM) or break the output format (newlines, CR, markup),
 * and the checks that none of it reaches an output raw.
 */
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A string carrying one of everything. */
export const HOSTILE =
  'A\u001b[31mRED\u001b[0m \u001b]0;pwned-title\u0007 ' +
  '\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\ \u001b]52;c;ZXZpbA==\u0007 ' +
  '\u009b31m c1-csi \u0085nel \u009d8;;x\u009c \u202eevil\u202c \u2066iso\u2069 \u200bzw \ufeffbom \u0000nul ' +
  '\u0007bel \u0008bs \r\nINJECTED-LINE \u007fdel ' +
  '<script>alert(1)</script> | [x](javascript:alert(1)) @everyone ]]> "q" \'a\' %2F end';

/** The same for names (a directory or file name: no NUL, no '/', under 255 bytes). */
export const HOSTILE_NAME =
  'n\u001b[31m\u001b]0;t\u0007\u009b1m\u0085\u202ex\u2066y\u2069\r\nINJECTED-LINE\t\u007f<b>&%2F\u200b';

/** The characters that must never reach an output raw from session content. */
export const FORBIDDEN_CODE_POINTS: Array<[number, number]> = [
  [0x00, 0x08],
  [0x0b, 0x1f], // every C0 control but TAB and LF (CR included: it overwrites the line on a terminal)
  [0x7f, 0x9f], // DEL and the C1 controls (0x9b is an 8-bit CSI)
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2066, 0x2069], // bidi isolates
];

const FORBIDDEN_RE = new RegExp(
  `[${FORBIDDEN_CODE_POINTS.map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join('')}]`,
  'gu',
);

/** Every raw forbidden character in `text`, with a little context, for a readable failure. */
export function rawControls(text: string, { allowCrLf = false }: { allowCrLf?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(FORBIDDEN_RE)) {
    const i = m.index;
    if (allowCrLf && m[0] === '\r' && text[i + 1] === '\n') continue;
    out.push(
      `U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${i}: ` +
        `${JSON.stringify(text.slice(Math.max(0, i - 30), i + 30))}`,
    );
    if (out.length >= 10) break;
  }
  return out;
}

/** Hostile code points, weighted towards the dangerous ones. */
const dangerous = fc.oneof(
  fc.integer({ min: 0x00, max: 0x1f }),
  fc.integer({ min: 0x7f, max: 0x9f }),
  fc.constantFrom(
    0x202a,
    0x202b,
    0x202c,
    0x202d,
    0x202e,
    0x2066,
    0x2067,
    0x2068,
    0x2069,
    0x200b,
    0x200e,
    0x200f,
    0x2028,
    0x2029,
    0xfeff,
    0x061c,
    0x00ad,
  ),
  fc.constantFrom(
    0x3c,
    0x3e,
    0x26,
    0x22,
    0x27,
    0x7c,
    0x5b,
    0x5d,
    0x28,
    0x29,
    0x60,
    0x40,
    0x2a,
    0x5f,
    0x23,
    0x5c,
    0x2f,
    0x25,
  ),
);
const escapes = fc.constantFrom(
  '\u001b[2J',
  '\u001b]0;t\u0007',
  '\u001b]8;;http://e/\u001b\\',
  '\u001bP+q\u001b\\',
  '\u009b6n',
  '\r\nFORGED',
  '\n\n# heading',
  '</td></tr><tr><td>',
  ']]>',
  '{{x}}',
);

/** A string of ordinary text, hostile code points and whole escape sequences (lone surrogates included). */
export const hostileString: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { arbitrary: fc.string({ maxLength: 6 }), weight: 2 },
      { arbitrary: dangerous.map((c) => String.fromCodePoint(c)), weight: 3 },
      { arbitrary: escapes, weight: 1 },
      { arbitrary: fc.constantFrom('\ud800', '\udfff', '😀'), weight: 1 },
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

export const GROUP = '%2Fhome%2Fdev%2Fproj';

/**
 * A sessions root whose every content-bearing field is hostile: the session directory's name, file names,
 * summary.json strings, updates.jsonl tags, text, tool names, kinds, statuses and ids, chat_history text, a
 * subagent meta.json. Session ids are hostile too (the directory name is the id), so the cwd group is the
 * usual one and the loaders see realistic records around the hostile strings. Returns the session dirs.
 */
export function writeHostileRoot(
  root: string,
  evil = HOSTILE,
  name = HOSTILE_NAME,
): { root: string; sessions: string[] } {
  const group = join(root, 'sessions', GROUP);
  const ids = [`019a0000-0000-7000-8000-${name}`, '019a0000-0000-7000-8000-0000000000e2'];
  const sessions: string[] = [];
  for (const [k, id] of ids.entries()) {
    const dir = join(group, id);
    mkdirSync(dir, { recursive: true });
    sessions.push(dir);
    const t0 = 1787131800;
    const u = (i: number, update: Record<string, unknown>, method = 'session/update'): string =>
      JSON.stringify({
        timestamp: t0 + i,
        method,
        params: { sessionId: id, update, _meta: { eventId: `${id}-${i}`, agentTimestampMs: (t0 + i) * 1000 } },
      });
    const lines = [
      u(
        0,
        { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: `prompt ${evil}` } },
        'session/update',
      ),
      u(1, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `answer ${evil}` } }),
      u(2, {
        sessionUpdate: 'tool_call',
        toolCallId: `call-${evil}`,
        title: `run ${evil}`,
        kind: `execute${evil}`,
        status: `pending${evil}`,
        rawInput: { command: evil },
      }),
      u(3, {
        sessionUpdate: 'tool_call_update',
        toolCallId: `call-${evil}`,
        status: `in_progress${evil}`,
        content: [{ type: 'content', content: { type: 'text', text: evil } }],
      }),
      u(4, { sessionUpdate: `unknown_tag${evil}`, extra: evil }),
      u(
        5,
        { sessionUpdate: 'turn_completed', prompt_id: `p-${evil}`, stop_reason: `end_turn${evil}` },
        '_x.ai/session/update',
      ),
      u(6, {
        sessionUpdate: 'tool_call',
        toolCallId: `call2-${evil}`,
        title: `edit ${evil}`,
        kind: 'edit',
        status: 'pending',
        rawInput: { path: evil },
      }),
    ];
    writeFileSync(join(dir, 'updates.jsonl'), `${lines.join('\n')}\n`);
    const chat = [
      { type: 'system', content: `system ${evil}` },
      { type: 'user', content: [{ type: 'text', text: `prompt ${evil}` }] },
      {
        type: 'assistant',
        content: `answer ${evil}`,
        tool_calls: [{ id: `call-${evil}`, name: `bash${evil}`, arguments: JSON.stringify({ command: evil }) }],
      },
      { type: 'tool_result', tool_call_id: `call-${evil}`, content: evil },
      { type: 'assistant', content: evil, tool_calls: [{ id: `call2-${evil}`, name: `edit${evil}`, arguments: evil }] },
    ];
    writeFileSync(
      join(dir, 'chat_history.jsonl'),
      `${chat.map((c) => JSON.stringify(c)).join('\n')}\n{"type":"user","content":"torn ${evil.replace(/"/g, '')}`,
    );
    writeFileSync(
      join(dir, 'summary.json'),
      JSON.stringify({
        info: { id: k === 0 ? `other-${evil}` : id, cwd: `/home/dev/proj${evil}` },
        session_summary: evil,
        created_at: `${evil}2026-08-19T09:30:00Z`,
        updated_at: evil,
        last_active_at: evil,
        num_messages: 3,
        num_chat_messages: 2,
        current_model_id: `grok${evil}`,
        session_kind: `kind${evil}`,
        parent_session_id: k === 1 ? ids[0] : `parent-${evil}`,
        sandbox_profile: `profile${evil}`,
        generated_title: evil,
        chat_format_version: 1,
      }),
    );
    writeFileSync(join(dir, 'system_prompt.txt'), `other ${evil}`);
    writeFileSync(join(dir, `notes-${name}.txt`), evil);
    mkdirSync(join(dir, 'subagents', `sub-${name}`), { recursive: true });
    writeFileSync(
      join(dir, 'subagents', `sub-${name}`, 'meta.json'),
      JSON.stringify({
        subagent_id: evil,
        parent_session_id: evil,
        status: `running${evil}`,
        agent_type: evil,
        description: evil,
      }),
    );
    mkdirSync(join(dir, 'compaction_checkpoints'), { recursive: true });
    writeFileSync(
      join(dir, 'compaction_checkpoints', 'abc-def.json'),
      JSON.stringify({ checkpoint_id: evil, prompt_index_at_compaction: evil }),
    );
  }
  return { root, sessions };
}
