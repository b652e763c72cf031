/**
 * Claude Code's permission modes (formats/codex-claude.md §2.6) as comparable grants: plan (read-only planning) <
 * dontAsk (only pre-approved tools; the rest denied) < default (asks for the rest) < acceptEdits (file edits
 * without asking) < auto (a classifier approves commands) < bypassPermissions (every tool without asking). A Bash
 * call with `dangerouslyDisableSandbox: true` runs one command outside the sandbox: one call beyond any mode.
 */
import type { PolicyState } from '../../model/events.js';
import { isObj, str, type Obj } from '../shared/events.js';

const READ = 'reads files';
const PRE = 'runs pre-approved tools';
const ASK = 'asks before other tools';
const EDIT = 'edits files without asking';
const AUTO = 'runs tools a classifier approves without asking';
const ALL = 'runs every tool without asking';

const MODES: Record<string, string[]> = {
  plan: [READ],
  dontAsk: [READ, PRE],
  default: [READ, PRE, ASK],
  acceptEdits: [READ, PRE, ASK, EDIT],
  auto: [READ, PRE, ASK, EDIT, AUTO],
  bypassPermissions: [READ, PRE, ASK, EDIT, AUTO, ALL],
};

/** A permission mode as recorded: the user's own choice (Shift+Tab, /permissions, --permission-mode). */
export function modePolicy(mode: string, pointer: string): PolicyState {
  return {
    label: `permission mode ${JSON.stringify(mode)}`,
    grants: [...(MODES[mode] ?? [READ, `permission mode ${JSON.stringify(mode)}`])].sort(),
    pointer,
    userChoice: true,
    ...(mode === 'bypassPermissions' ? { unrestricted: true } : {}),
  };
}

/** A tool_use block that asks to run outside the sandbox, as a one-call policy; else undefined. */
export function sandboxDisabledCall(b: Obj): PolicyState | undefined {
  const input = isObj(b.input) ? b.input : undefined;
  if (input?.dangerouslyDisableSandbox !== true) return undefined;
  const cmd = str(input.command);
  return {
    label:
      `${str(b.name) ?? 'tool'} call ${str(b.id) ?? '?'} with dangerouslyDisableSandbox` +
      (cmd !== undefined ? ` (${JSON.stringify(cmd.length > 80 ? `${cmd.slice(0, 79)}…` : cmd)})` : ''),
    grants: ['runs a command outside the sandbox'],
    pointer: '/message/content',
    oneCall: true,
  };
}
