/**
 * What the index holds of a capture of an agent home's own files (a prompt history, a search index): every entry
 * its format's home checks can recall (engine/home-audit.ts `recallFrom`: each prompt with the session it names,
 * a search row's title and prompts), as events of the capture marked as recalled, so `search` finds text that
 * survives only in the home. Read from the store's pieces (nothing is written out); the home is not judged here
 * (its checks need the home's sessions, which other captures hold): the capture has no findings and no calls.
 */
import { formatNamed } from '../../formats/registry.js';
import type { FoundHome, FoundSession } from '../../model/found.js';
import type { CaptureRecord } from '../../store/record.js';
import { storeSource } from '../../store/store-source.js';
import type { TimelineEvent } from '../../timeline/model.js';
import { recallFrom } from '../home-audit.js';
import { promptIndexOf, recalledEvent } from '../recalled.js';

/** Why a home capture has no events: no format of this build reads the agent's home (a store of a newer build). */
export const HOME_UNKNOWN = "an agent home's own files (no format of this build reads them)";

/**
 * Hand the home capture's recalled entries to `onEvent`; `found` is the capture as discovery would meet it
 * (extract.ts `capturedAs`). A string says why there are none; undefined: indexed (no calls, no findings).
 */
export function homeFacts(
  store: string,
  record: CaptureRecord,
  captured: FoundSession,
  onEvent: (e: TimelineEvent) => void,
): string | undefined {
  const agent = record.session.id.slice('home:'.length);
  const format = formatNamed(agent);
  if (!format?.home) return HOME_UNKNOWN;
  const found = { ...captured, format: agent };
  const home: FoundHome = { abs: found.abs, display: found.display, format: agent, files: [...(found.members ?? [])] };
  const prompts = new Map<string, number>();
  recallFrom(
    home,
    storeSource(store, record, found),
    [],
    { command: 'audit' },
    () => true,
    (entry) => {
      const n = prompts.get(entry.session) ?? 0;
      if (entry.kind === 'user_prompt') prompts.set(entry.session, n + 1);
      onEvent(recalledEvent(entry, entry.file, promptIndexOf(entry, n)));
    },
  );
  return undefined;
}
