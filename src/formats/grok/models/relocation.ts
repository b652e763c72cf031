/** `<grok_home>/relocations/<session_id>.json` — `RelocationJournal` (§2.9, relocation/journal.rs). */
import { z } from 'zod';
import { named, obj, uint } from '../../shared/zod.js';

export const RELOCATION_PHASES = [
  'prepared',
  'staged',
  'target_published',
  'ready',
  'committed',
  'rolled_back',
] as const;

export const RelocationJournal = named(
  'RelocationJournal',
  obj({
    version: z.literal(1),
    session_id: z.string(),
    nonce: z.string(),
    source_cwd: z.string(),
    target_cwd: z.string(),
    cwd_generation: uint.min(1),
    phase: z.enum(RELOCATION_PHASES),
  }),
  'relocations/<session_id>.json: a session relocation journal (U2); its phase decides which copy is authoritative.',
);
