/**
 * `sessions/<encoded-cwd>/permission*.toml` (home-artifacts.md §1.6): Grok's per-cwd permission store, the
 * "always allow" and "always deny" decisions made in that project (`allow_bash_execute`, `allowed_bash_commands`,
 * `allowed_bash_globs`, `allowed_web_fetch_domains`, `allowed_mcp_tools`, `allowed_mcp_servers`, …), swept after 30
 * days without a write. It names no session and dates no grant: a grant is tied only to its cwd group. GPM-2 (a
 * grant against a session's approval mode) is not judged: the Grok logs this audit reads record no approval mode.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { isGrant, permissionFiles, readPermissionStore, shown } from './permission-store.js';

export { PERMISSION_FILES } from './permission-store.js';

type Codes = 'GROK_PERMISSION_GRANT_WITHOUT_SESSION' | 'GROK_PERMISSION_UNREADABLE';

function judge(ctx: HomeCheckContext<Codes>, file: string, group: string): void {
  const store = readPermissionStore(ctx.source, file);
  if (!store.ok) {
    ctx.emit(
      'GROK_PERMISSION_UNREADABLE',
      store.line !== undefined ? { file, line: store.line, byteOffset: store.byteOffset ?? 0 } : { file },
      `${file} ${store.why}: it was edited by hand, written by another program or a newer Grok, or damaged; its ` +
        'grants are not judged.',
      { key: 'file' },
    );
    return;
  }
  const survivors = [...ctx.sessions.values()].flat().filter((s) => s.groupName === group);
  if (survivors.length) return;
  for (const e of store.entries.filter(isGrant))
    ctx.emit(
      'GROK_PERMISSION_GRANT_WITHOUT_SESSION',
      { file, line: e.line, byteOffset: e.byteOffset, byteLength: e.byteLength },
      `${file} grants ${shown(e)}, and no session of its cwd group is in the home: the decision was made by a ` +
        'session that was deleted since (the 30-day cleanup, /delete) or relocated, and it still applies to every ' +
        'new session in that project.',
      { key: e.key },
    );
}

export const grokPermissions = defineHomeCheck({
  id: 'grok-permissions',
  codes: {
    GROK_PERMISSION_GRANT_WITHOUT_SESSION: {
      severity: 'note',
      title: 'A permission grant of a project outlives every session of it.',
      help:
        'A permission*.toml of a cwd group holds an "always allow" decision (bash execution, commands, globs, web ' +
        'domains, MCP tools or servers), but no session of that cwd group is in the home. The store records no ' +
        'session and no time per grant: the session that made it was deleted (the 30-day cleanup, /delete, by ' +
        'hand), relocated to another cwd group, or the copy of the home is partial. The decision survives its ' +
        'session and applies to every new session in that project.',
    },
    GROK_PERMISSION_UNREADABLE: {
      severity: 'warning',
      title: 'A permission store is not in the TOML Grok writes.',
      help:
        'A permission*.toml holds something outside the plain TOML Grok writes (top-level keys set to booleans, ' +
        'strings or arrays of strings, and comments): a table, another kind of value, a repeated key, bytes that ' +
        'are not UTF-8, or it is too large. It was edited by hand, written by another program or a newer Grok, or ' +
        'damaged. Its grants are not judged.',
    },
  },
  run(ctx) {
    for (const { file, group } of permissionFiles(ctx.source)) judge(ctx, file, group);
  },
});
