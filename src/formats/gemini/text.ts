/** The full text of a Gemini record, never truncated: a message's text, thoughts and calls, or the record itself. */
import type { SessionEvent } from '../../model/events.js';
import type { JsonlRecord } from '../../model/records.js';
import { isObj } from '../shared/events.js';
import { callsOf, contentText, responses, thoughtsText } from './parts.js';

export function geminiEventText(e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  if (!isObj(v) || typeof v.id !== 'string') return isObj(v) ? JSON.stringify(v) : e.summary;
  const parts = [thoughtsText(v), contentText(v.content)];
  for (const c of callsOf(v)) {
    parts.push(`${c.name} ${JSON.stringify(c.args)}`);
    for (const x of responses(c.entry?.result)) parts.push(x.text);
  }
  for (const x of responses(v.content)) parts.push(`${x.name}: ${x.text}`);
  return parts.filter(Boolean).join('\n');
}
