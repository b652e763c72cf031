/**
 * The approval and sandbox policy of a Codex turn (turn_context, formats/codex-claude.md §1.6) as comparable grants.
 * `AskForApproval`: untrusted (asks before anything but known-safe reads) < on-failure ~ on-request (sandboxed
 * commands run without asking) < never (never asks). `SandboxPolicy`: read-only < workspace-write (+ writable
 * roots, /tmp, $TMPDIR, network when allowed) < danger-full-access; external-sandbox leaves the filesystem to an
 * outer sandbox. Newer builds record `permission_profile` ({managed, file_system, network} | disabled | external),
 * which wins over the legacy field when present (TurnContextItem::permission_profile()).
 */
import type { PolicyState } from '../../model/events.js';
import { isObj, str, type Obj } from '../shared/events.js';

const RUNS = 'runs sandboxed commands without asking';
const APPROVAL: Record<string, string[]> = {
  untrusted: [],
  'on-failure': [RUNS],
  'on-request': [RUNS],
  never: [RUNS, 'never asks for approval (failures go back to the model)'],
};

const ANYWHERE = 'writes anywhere';
const NET = 'child processes reach the network';
const UNSANDBOXED = 'runs commands outside any sandbox';

function legacySandbox(sp: Obj, cwd: string | undefined): { name: string; grants: string[] } {
  const type = str(sp.type) ?? '?';
  switch (type) {
    case 'danger-full-access':
      return { name: type, grants: [ANYWHERE, NET, UNSANDBOXED] };
    case 'read-only':
      return { name: type, grants: sp.network_access === true ? [NET] : [] };
    case 'external-sandbox':
      return {
        name: type,
        grants: [
          'writes what the external sandbox allows',
          ...(sp.network_access === 'enabled' || sp.network_access === true ? [NET] : []),
        ],
      };
    case 'workspace-write': {
      const g = ['writes the workspace'];
      for (const r of Array.isArray(sp.writable_roots) ? sp.writable_roots : [])
        if (typeof r === 'string' && r !== cwd) g.push(`writes ${r}`);
      if (sp.exclude_slash_tmp !== true) g.push('writes /tmp');
      if (sp.exclude_tmpdir_env_var !== true) g.push('writes $TMPDIR');
      if (sp.network_access === true) g.push(NET);
      return { name: type, grants: g };
    }
    default:
      return { name: type, grants: [`sandbox ${JSON.stringify(type)}`] };
  }
}

function permissionProfile(pp: Obj): { name: string; grants: string[] } {
  const type = str(pp.type) ?? '?';
  const net = pp.network === 'enabled' || pp.network === true || (isObj(pp.network) && pp.network.type === 'enabled');
  if (type === 'disabled') return { name: 'permission profile "disabled"', grants: [ANYWHERE, NET, UNSANDBOXED] };
  if (type === 'external')
    return {
      name: 'permission profile "external"',
      grants: ['writes what the external sandbox allows', ...(net ? [NET] : [])],
    };
  if (type === 'managed') {
    const fs = isObj(pp.file_system) ? pp.file_system : {};
    const g: string[] = [];
    if (fs.type === 'unrestricted') g.push(ANYWHERE);
    for (const e of Array.isArray(fs.entries) ? fs.entries : []) {
      if (!isObj(e)) continue;
      const access = JSON.stringify(e.access ?? e.mode ?? '');
      const path = typeof e.path === 'string' ? e.path : JSON.stringify(e.path ?? '?');
      if (/write/i.test(access)) g.push(`writes ${path}`);
    }
    if (net) g.push(NET);
    return {
      name:
        `permission profile "managed" (${fs.type === 'unrestricted' ? 'un' : ''}restricted filesystem` +
        (net ? ', network' : '') +
        ')',
      grants: g,
    };
  }
  return { name: `permission profile ${JSON.stringify(type)}`, grants: [`permission profile ${JSON.stringify(type)}`] };
}

/** The policy a turn_context payload records, or undefined when it records none. */
export function turnPolicy(payload: Obj): PolicyState | undefined {
  const approval = str(payload.approval_policy);
  const sp = isObj(payload.sandbox_policy) ? payload.sandbox_policy : undefined;
  const pp = isObj(payload.permission_profile) ? payload.permission_profile : undefined;
  if (approval === undefined && !sp && !pp) return undefined;
  const grants = new Set<string>();
  const parts: string[] = [];
  if (approval !== undefined) {
    parts.push(`approval ${JSON.stringify(approval)}`);
    for (const g of APPROVAL[approval] ?? [`approval ${JSON.stringify(approval)}`]) grants.add(g);
  }
  const sandbox = pp ? permissionProfile(pp) : sp ? legacySandbox(sp, str(payload.cwd)) : undefined;
  if (sandbox) {
    parts.push(
      pp
        ? sandbox.name
        : `sandbox ${JSON.stringify(sandbox.name)}${sp?.network_access === true ? ' with network' : ''}`,
    );
    for (const g of sandbox.grants) grants.add(g);
  }
  const unrestricted = approval === 'never' || sandbox?.name === 'danger-full-access' || pp?.type === 'disabled';
  // A turn_context records the approval and sandbox policy the user set for the turn (config, /approvals).
  return {
    label: parts.join(', '),
    grants: [...grants].sort(),
    pointer: pp ? '/payload/permission_profile' : sp ? '/payload/sandbox_policy' : '/payload/approval_policy',
    userChoice: true,
    ...(unrestricted ? { unrestricted: true } : {}),
  };
}
