/**
 * The permission stores of a Grok home as a reviewer sees them (`inspect`, `lineage`): the decisions of a cwd group
 * (an "always allow" grant, an "always deny" list), read once through `permission-store.ts` as the check reads them.
 * `inspect` shows those of the session's own cwd group; `lineage` those of a group with no session in the home. A
 * store the check finds unreadable shows nothing here.
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';
import { excerpt } from '../../../checks/excerpt.js';
import type { FoundSession } from '../../../model/found.js';
import type { HomeViewItem, HomeViewSection } from '../../../model/home-view.js';
import { decodeCwdDirname } from '../paths.js';
import { grantValue, isGrant, permissionFiles, readPermissionStore, shown } from './permission-store.js';
import type { TomlEntry } from './toml-subset.js';

/** Items listed in a section before the rest are counted. */
const CAP = 50;

const isDenial = (e: TomlEntry): boolean =>
  e.key.startsWith('disallowed_') && Array.isArray(e.value) && e.value.length > 0;

/** The decisions of the stores given, in the inventory's order, at most CAP listed. */
function section(
  ctx: HomeCheckContext,
  files: ReadonlyArray<{ file: string; group: string }>,
  kind: string,
  title: string,
  withCwd: boolean,
): HomeViewSection[] {
  const items: HomeViewItem[] = [];
  let more = 0;
  for (const { file, group } of files) {
    const store = readPermissionStore(ctx.source, file);
    if (!store.ok) continue;
    const cwd = decodeCwdDirname(group);
    for (const e of store.entries) {
      const decision = isGrant(e) ? 'allow' : isDenial(e) ? 'deny' : undefined;
      if (decision === undefined) continue;
      if (items.length >= CAP) {
        more++;
        continue;
      }
      const { value, more: moreValues } = grantValue(e);
      const item: HomeViewItem = {
        file,
        line: e.line,
        text: `${shown(e)}${withCwd && cwd !== undefined ? ` (cwd ${excerpt(cwd, 120)})` : ''}`,
        fields: { decision, key: e.key, value },
      };
      if (moreValues) item.fields.moreValues = moreValues;
      if (cwd !== undefined) item.fields.cwd = excerpt(cwd, 120);
      items.push(item);
    }
  }
  if (!items.length) return [];
  return [{ kind, title, items, ...(more ? { more } : {}) }];
}

/** The decisions of the session's cwd group: they apply to it and to every new session in that project. */
export function grantsOfSession(ctx: HomeCheckContext, session: FoundSession): HomeViewSection[] {
  const group = session.groupName;
  if (group === undefined) return [];
  const files = permissionFiles(ctx.source).filter((f) => f.group === group);
  return section(ctx, files, 'permission-grants', 'permission decisions of its cwd group', false);
}

/** The decisions of cwd groups with no session in the home: they outlive the sessions that made them. */
export function grantsOutsideSessions(ctx: HomeCheckContext): HomeViewSection[] {
  const groups = new Set([...ctx.sessions.values()].flat().map((s) => s.groupName));
  const files = permissionFiles(ctx.source).filter((f) => !groups.has(f.group));
  return section(ctx, files, 'permission-grants', 'permission decisions of a cwd group with no session', true);
}
