/**
 * A sessions root at the scale a reviewer meets: `copies` copies of the clean corpus's cwd group (a multi-turn
 * session with tool calls, its subagent's session and a fork: three sessions each, with their own ids), each copy
 * damaged a little (a torn tail in the main session's log, an unexpected file in the other two), so the report has
 * about one finding per session and every session a real timeline.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPORA } from './corpora.js';

const GROUP = join(CORPORA, 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj');
const IDS = [
  '019a3f2c-1d00-7a3e-8000-00000000a001',
  '019a3f2e-0f10-7c42-8000-00000000a003',
  '019a3f6b-8e40-7b11-8000-00000000a002',
];

function copyWithIds(from: string, to: string, rename: (s: string) => string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const dst = join(to, rename(name));
    if (statSync(src).isDirectory()) copyWithIds(src, dst, rename);
    else writeFileSync(dst, rename(readFileSync(src, 'utf8')));
  }
}

export function writeScaleRoot(root: string, copies: number): { root: string; sessions: number } {
  for (let i = 0; i < copies; i++) {
    const suffix = (id: string): string => `${id.slice(0, 24)}${(0xb00000 + i).toString(16)}${id.slice(30)}`;
    const rename = (s: string): string => IDS.reduce((t, id) => t.split(id).join(suffix(id)), s);
    const group = join(root, 'sessions', `%2Fhome%2Fdev%2Fproj${i}`);
    copyWithIds(GROUP, group, (s) => rename(s).split('/home/dev/proj').join(`/home/dev/proj${i}`));
    const [main, sub, fork] = IDS.map((id) => join(group, suffix(id)));
    appendFileSync(join(main!, 'updates.jsonl'), '{"timestamp":1787131900,"method":"session/upd');
    writeFileSync(join(sub!, 'notes.txt'), `copy ${i}\n`);
    writeFileSync(join(fork!, 'notes.txt'), `copy ${i}\n`);
  }
  return { root, sessions: copies * IDS.length };
}
