/**
 * The generic checks: they work on the normalized model, for every agent. A plain array, in the order checks run
 * (each format's own checks run after them on its sessions). Adding a check is adding a file and a line here.
 */
import type { Check } from './define.js';
import type { HomeCheck } from './define-home.js';
import type { RootCheck } from './define-root.js';
import { homeNames } from './home-names.js';
import { homeSecrets } from './home-secrets.js';
import { jsonlIntegrity } from './jsonl-integrity.js';
import { lineage } from './lineage.js';
import { schema } from './schema.js';
import { secrets } from './secrets.js';
import { sessionFiles } from './session-files.js';
import { sessionPolicy } from './session-policy.js';
import { time } from './time.js';
import { toolPairing } from './tool-pairing.js';

export const CHECKS = [
  sessionFiles,
  jsonlIntegrity,
  schema,
  toolPairing,
  time,
  sessionPolicy,
  secrets,
] as const satisfies readonly Check[];

/** Checks over a whole tree of sessions, run by `audit` after every session has been read. */
export const ROOT_CHECKS = [lineage] as const satisfies readonly RootCheck[];

/** Checks every agent's home gets, before its format's own home checks. */
export const HOME_CHECKS = [homeNames, homeSecrets] as const satisfies readonly HomeCheck[];
