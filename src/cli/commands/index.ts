/**
 * Every command as data (see ../spec.ts): what it takes, examples, exit codes. Nothing here loads engine code: a
 * command's module is imported only when that command runs, so `--version`, `--help` and `checks` start fast.
 * The specs are in specs-review.ts and specs-evidence.ts; COMMANDS is their order in help and in usage errors.
 */
import type { CommandSpec } from '../spec.js';
import { archive, bundle, captures, search, verify } from './specs-evidence.js';
import {
  activity,
  audit,
  checks,
  inspect,
  lineage,
  merge,
  pairs,
  sessions,
  timeline,
  transcript,
  validate,
} from './specs-review.js';

export const COMMANDS: readonly CommandSpec[] = [
  sessions,
  activity,
  audit,
  validate,
  timeline,
  transcript,
  pairs,
  inspect,
  lineage,
  merge,
  bundle,
  verify,
  archive,
  captures,
  search,
  checks,
];
