/** Checks over a whole sessions root (lineage, sandbox inheritance): pure functions of the lineage graph. */
import type { CodeInfo, Location, Severity } from '../model/finding.js';
import type { LineageFacts } from '../lineage/facts.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { SessionSource } from '../model/source.js';
import type { AgentTraits } from '../formats/traits.js';

/** What a root check may read besides the sessions, given on the command line and read before any session. */
export interface TreeInputs {
  /** `--sandbox-config` files, in the order given (user file first, then project), with their UTF-8 text. */
  sandboxConfigs: ReadonlyArray<{ path: string; text: string }>;
  /** `--against`: the sessions of an earlier capture, opened read-only. */
  earlier?: readonly SessionSource[];
}

export interface RootCheckContext<C extends string = string> {
  graph: LineageGraph;
  /** The agent of a session of the tree (its names and wording). */
  agentOf(session: LineageFacts): AgentTraits;
  /** Report a finding on one session of the tree. */
  emit(
    on: LineageFacts,
    code: C,
    location: Location,
    message: string,
    opts?: { key?: string; severity?: Severity },
  ): void;
}

export interface RootCheck<C extends string = string, P = unknown> {
  id: string;
  codes: Record<C, CodeInfo>;
  /** Read what the check needs beyond the sessions (before any is audited); bad input throws a UsageError. */
  prepare?(inputs: TreeInputs): P;
  run(ctx: RootCheckContext<C>, prepared: P): void;
}

export function defineRootCheck<C extends string, P = undefined>(check: RootCheck<C, P>): RootCheck<C, P> {
  return check;
}
