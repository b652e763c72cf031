/** SESSION_TEMP_LEFTOVER and SESSION_QUARANTINE_PRESENT: what interrupted writes and Grok's own repairs left behind. */
import { createHash } from 'node:crypto';
import { defineCheck } from '../../../checks/define.js';

const UUIDV7 = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7[0-9a-fA-F]{3}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** `<file>.tmp`, `<file>.<uuidv7>.tmp`, `<file>.sync.tmp`, `<file>.<n>.<id>.tmp`: group 1 is `<file>`. */
const TEMP = new RegExp(`^(.*?)(?:\\.${UUIDV7}|\\.sync|\\.\\d+\\.[0-9A-Za-z-]+)?\\.tmp$`);

/** The live file a temp file was going to replace (U1 `<file>.tmp`, U2 `<file>.<uuidv7>.tmp`, fixed names). */
function tempTarget(path: string): string | undefined {
  const m = TEMP.exec(path);
  return m?.[1];
}

export const sessionLeftovers = defineCheck({
  id: 'session-leftovers',
  validate: false,
  codes: {
    SESSION_TEMP_LEFTOVER: {
      severity: 'warning',
      title: 'A temp file left by an interrupted atomic write',
      help:
        'Grok writes summary.json, plan_mode.json, signals.json, chat-history rewrites and other state to a ' +
        'temp sibling and renames it over the target (U1 names `<file>.tmp`, U2 `<file>.<uuidv7>.tmp`). A leftover ' +
        'temp file means the process died between the write and the rename. The temp may hold a newer state than ' +
        'the live file (the write that never landed): the message compares the two. Grok ignores such files.',
    },
    SESSION_QUARANTINE_PRESENT: {
      severity: 'warning',
      title: 'Grok quarantined a damaged chat history',
      help:
        'chat_history.jsonl.corrupt is a byte-for-byte copy Grok took the first time a load skipped a bad line ' +
        'or stripped an image; the post-load rewrite then scrubbed the live file, so the quarantine copy is the ' +
        'only surviving evidence of what was lost. chat_history.jsonl.pre-strip is the backup taken before a ' +
        'destructive image strip. The message says how many records the quarantine holds that the live file lost, ' +
        'and where.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    const quarantines = [...session.artifacts.values()].filter((a) => a.role === 'quarantine').map((a) => a.path);
    const live = new Set<string>();
    const held = new Map<string, { records: number; lost: number[]; damaged: number[] }>();
    const digest = (v: unknown): string => createHash('sha256').update(JSON.stringify(v)).digest('hex');
    for (const q of quarantines) held.set(q, { records: 0, lost: [], damaged: [] });
    return {
      record({ file, kind, record }) {
        if (quarantines.length === 0) return;
        if (kind === 'chat') live.add(digest(record.value));
        const h = held.get(file);
        if (h) {
          h.records++;
          if (!live.has(digest(record.value))) h.lost.push(record.line);
        }
      },
      damage({ file, damage }) {
        held.get(file)?.damaged.push(damage.line);
      },
      end() {
        const byPath = new Map(session.inventory.map((x) => [x.path, x]));
        for (const e of session.inventory) {
          const a = session.artifacts.get(e.path);
          if (a?.role !== 'temp' || e.type !== 'file') continue;
          const target = tempTarget(e.path);
          const t = target !== undefined ? byPath.get(target) : undefined;
          const compare =
            target === undefined
              ? ''
              : !t
                ? `; the live ${target} does not exist, so this temp file is the only copy of that state`
                : t.sha256 !== undefined && t.sha256 === e.sha256
                  ? `; identical to the live ${target}`
                  : `; it differs from the live ${target} (${e.size} vs ${t.size} bytes): it may hold the state ` +
                    `whose write never landed`;
          ctx.emit(
            'SESSION_TEMP_LEFTOVER',
            { file: e.path },
            `${a.note ?? 'temp file of an interrupted write'}: the process died between writing it and renaming it ` +
              `into place${compare}`,
          );
        }
        for (const [q, h] of held) {
          const lines = [...new Set([...h.lost, ...h.damaged])].sort((x, y) => x - y);
          const more = lines.length > 12 ? `, … (${lines.length} in all)` : '';
          const where = `: line(s) ${lines.slice(0, 12).join(', ')}${more}`;
          const what =
            lines.length === 0
              ? `every one of its ${h.records} record(s) is still in chat_history.jsonl`
              : `it holds ${lines.length} line(s) whose content chat_history.jsonl no longer has (${h.lost.length} ` +
                `readable record(s), ${h.damaged.length} damaged line(s))${where}`;
          const why = q.endsWith('.corrupt')
            ? 'Grok copied the raw chat history here the first time a load skipped a bad line or stripped an image'
            : 'Grok backed up the chat history here before stripping images';
          ctx.emit('SESSION_QUARANTINE_PRESENT', { file: q }, `${why}; ${what}`);
        }
      },
    };
  },
});
