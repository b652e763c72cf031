/** Checks over a whole sessions root (lineage, sandbox inheritance): pure functions of the lineage graph. */
import type { CodeInfo, Location, Severity } from '../model/finding.js';
import type { LineageFacts } from '../lineage/facts.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { ProfileBook } from '../sandbox/profiles.js';

export interface CapturedSession {
  id: string;
  /** Where the earlier capture holds it. */
  path: string;
  sandboxProfile?: string;
  hasSummary: boolean;
}

export interface RootCheckContext {
  graph: LineageGraph;
  profiles: ProfileBook;
  /** An earlier capture of the same sessions (`audit --against`), by session id. */
  earlier?: ReadonlyMap<string, CapturedSession>;
  /** Report a finding on one session of the tree. */
  emit(on: LineageFacts, code: string, location: Location, message: string, opts?: { key?: string; severity?: Severity }): void;
}

export interface RootCheck<C extends string = string> {
  id: string;
  codes: Record<C, CodeInfo>;
  run(ctx: RootCheckContext): void;
}

export function defineRootCheck<C extends string>(check: RootCheck<C>): RootCheck<C> {
  return check;
}
