/**
 * A Grok session of very many tiny lines (agent message chunks of one word, timed by their whole-second envelope),
 * written in pieces so the test never holds it: the volume case of the renderers and commands.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LONG_SESSION_ID = '019a3f2c-1d00-7a3e-8000-0000000f0001';

export function writeLongSession(root: string, lines: number): string {
  const dir = join(root, 'sessions', '%2Fhome%2Fdev%2Fproj', LONG_SESSION_ID);
  mkdirSync(dir, { recursive: true });
  const fd = openSync(join(dir, 'updates.jsonl'), 'w');
  try {
    let chunk = '';
    for (let i = 1; i <= lines; i++) {
      chunk +=
        `{"timestamp":${1787131800 + (i >> 10)},"method":"session/update","params":{"sessionId":"${LONG_SESSION_ID}",` +
        `"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"w${i}"}}}}\n`;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  writeFileSync(
    join(dir, 'summary.json'),
    `${JSON.stringify(
      {
        info: { id: LONG_SESSION_ID, cwd: '/home/dev/proj' },
        session_summary: '',
        created_at: '2026-08-19T09:30:00.000000Z',
        updated_at: '2026-08-19T09:30:00.000000Z',
        num_messages: lines,
        num_chat_messages: 0,
        current_model_id: 'grok-build',
        chat_format_version: 1,
      },
      null,
      2,
    )}\n`,
  );
  return dir;
}
