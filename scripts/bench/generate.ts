/**
 * Deterministic benchmark data: a large, realistic, valid Grok session of a given size, and roots of many small
 * sessions.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A realistic tool output (a source file of about 2 KB), so a session's size is mostly tool results. */
const FILE_BODY = Array.from(
  { length: 40 },
  (_, k) => `    let v${k} = add(${k}, ${k * 7}); // saturating arithmetic check\n`,
).join('');

export function writeLargeSession(root: string, bytes: number): string {
  const id = '019a0000-0000-7000-8000-0000000000b1';
  const dir = join(root, 'sessions', '%2Fhome%2Fdev%2Fbig', id);
  mkdirSync(dir, { recursive: true });
  const fd = openSync(join(dir, 'updates.jsonl'), 'w');
  let written = 0;
  let i = 0;
  let batch: string[] = [];
  while (written < bytes) {
    const t = 1755600000 + Math.floor(i / 10);
    const k = i % 4;
    const update =
      k === 0
        ? {
            sessionUpdate: 'agent_message_chunk',
            content: {
              type: 'text',
              text: `Streamed model text, chunk ${i}: the fix is to saturate instead of wrapping.`,
            },
          }
        : k === 1
          ? {
              sessionUpdate: 'tool_call',
              toolCallId: `call_${i}`,
              title: `Read src/file${i}.rs`,
              kind: 'read',
              status: 'pending',
              rawInput: { path: `src/file${i}.rs` },
            }
          : k === 2
            ? {
                sessionUpdate: 'tool_call_update',
                toolCallId: `call_${i - 1}`,
                status: 'completed',
                content: [{ type: 'content', content: { type: 'text', text: `fn f${i}() -> i64 {\n${FILE_BODY}}\n` } }],
                rawOutput: { output: 'ok' },
              }
            : {
                sessionUpdate: 'turn_completed',
                prompt_id: `p${i}`,
                stop_reason: 'end_turn',
                usage: { inputTokens: 1000, outputTokens: 20, totalTokens: 1020, numTurns: 1 },
              };
    const method = k === 3 ? '_x.ai/session/update' : 'session/update';
    const line = JSON.stringify({
      timestamp: t,
      method,
      params: { sessionId: id, update, _meta: { eventId: `${id}-${i}`, agentTimestampMs: t * 1000 } },
    });
    batch.push(line);
    written += Buffer.byteLength(line) + 1;
    i++;
    if (batch.length === 5000) {
      writeSync(fd, `${batch.join('\n')}\n`);
      batch = [];
    }
  }
  if (batch.length) writeSync(fd, `${batch.join('\n')}\n`);
  closeSync(fd);
  writeFileSync(
    join(dir, 'summary.json'),
    JSON.stringify(
      {
        info: { id, cwd: '/home/dev/big' },
        session_summary: '',
        created_at: '2026-08-19T10:00:00Z',
        updated_at: '2026-08-19T12:00:00Z',
        num_messages: i,
        num_chat_messages: 0,
        current_model_id: 'grok-build',
        chat_format_version: 1,
      },
      null,
      2,
    ) + '\n',
  );
  return dir;
}

/**
 * A sessions root of `n` small sessions: copies of the clean corpus's subagent session (a real multi-record
 * session) with their own ids, spread over 10 cwd groups. Returns the root.
 */
export function writeManySessions(root: string, n: number, template: string): string {
  const files = readdirSync(template).filter((f) => f.endsWith('.json') || f.endsWith('.jsonl') || f.endsWith('.txt'));
  const templateId = template.split('/').pop()!;
  const content = new Map(files.map((f) => [f, readFileSync(join(template, f), 'utf8')]));
  for (let i = 0; i < n; i++) {
    const hex = (n: number, w: number): string => n.toString(16).padStart(w, '0');
    const id = `019b${hex(i >>> 16, 4)}-${hex(i & 0xffff, 4)}-7000-8000-${hex(i, 12)}`;
    const group = `%2Fhome%2Fdev%2Fproj${i % 10}`;
    const dir = join(root, 'sessions', group, id);
    mkdirSync(dir, { recursive: true });
    for (const [f, text] of content)
      writeFileSync(
        join(dir, f),
        text
          .split(templateId)
          .join(id)
          .split('/home/dev/proj')
          .join(`/home/dev/proj${i % 10}`),
      );
  }
  return root;
}

/** A session of the shipped clean Grok corpus, by id: the template of the generated roots. */
export const cleanGrokSession = (packageRoot: string, id: string): string =>
  join(packageRoot, 'corpora', 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', id);
