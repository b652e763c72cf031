/**
 * `sessions/<encoded-cwd>/permission*.toml` (home-artifacts.md §1.6): Grok's per-cwd permission store, the
 * "always allow" and "always deny" decisions made in that project (`allow_bash_execute`, `allowed_bash_commands`,
 * `allowed_bash_globs`, `allowed_web_fetch_domains`, `allowed_mcp_tools`, `allowed_mcp_servers`, …), swept after 30
 * days without a write. It names no session and dates no grant: a grant is tied only to its cwd group. GPM-2 (a
 * grant against a session's approval mode) is not judged: the Grok logs this audit reads record no approval mode.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { readTomlSubset, type TomlEntry } from './toml-subset.js';

export const PERMISSION_FILES = 'sessions/*/permission*.toml';
const FILE_RE = /^sessions\/([^/]+)\/permission(?:_[^/]*)?\.toml$/;
const MAX_BYTES = 1024 * 1024;

/** The keys whose value grants something: a boolean allowed, or a list of what is allowed. */
const GRANTS = new Set([
  'allow_bash_execute',
  'allowed_bash_commands',
  'allowed_bash_globs',
  'allowed_web_fetch_domains',
  'allowed_mcp_tools',
  'allowed_mcp_servers',
]);

type Codes = 'GROK_PERMISSION_GRANT_WITHOUT_SESSION' | 'GROK_PERMISSION_UNREADABLE';

const isGrant = (e: TomlEntry): boolean =>
  GRANTS.has(e.key) && (e.value === true || (Array.isArray(e.value) && e.value.length > 0));

function shown(e: TomlEntry): string {
  if (!Array.isArray(e.value)) return `${e.key} = ${String(e.value)}`;
  const items = e.value.slice(0, 5).map((v) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v));
  return `${e.key} = [${items.join(', ')}${e.value.length > 5 ? `, and ${e.value.length - 5} more` : ''}]`;
}

function judge(ctx: HomeCheckContext<Codes>, file: string, group: string): void {
  const read = ctx.source.readFile(file, MAX_BYTES);
  const bad = (why: string, line?: number, byteOffset?: number): void => {
    ctx.emit(
      'GROK_PERMISSION_UNREADABLE',
      line !== undefined ? { file, line, byteOffset: byteOffset ?? 0 } : { file },
      `${file} ${why}: it was edited by hand, written by another program or a newer Grok, or damaged; its grants ` +
        'are not judged.',
      { key: 'file' },
    );
  };
  if (!read.ok) {
    bad(`cannot be read (${read.error})`);
    return;
  }
  if (read.value.truncated) {
    bad(`is larger than ${MAX_BYTES} bytes`);
    return;
  }
  const toml = readTomlSubset(read.value.bytes);
  if (!toml.ok) {
    bad(`holds ${toml.why} at line ${toml.line}, outside the TOML Grok writes`, toml.line, toml.byteOffset);
    return;
  }
  const survivors = [...ctx.sessions.values()].flat().filter((s) => s.groupName === group);
  if (survivors.length) return;
  for (const e of toml.entries.filter(isGrant))
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
    for (const e of ctx.source.inventory) {
      const m = e.type === 'file' ? FILE_RE.exec(e.path) : null;
      if (m) judge(ctx, e.path, m[1]!);
    }
  },
});
