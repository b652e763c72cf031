/**
 * A subagent's own session lives at `<root>/<encode(child cwd)>/<child id>/` (a top-level session, not nested in
 * its parent): found from the parent's place and the cwd its summary.json records.
 */
import { basename, dirname, join } from 'node:path';
import type { FoundSession } from '../../model/found.js';
import type { SessionSource } from '../../model/source.js';
import { isRealDirectory } from '../../read/walk.js';
import { grokIdentityOf } from './identity.js';
import { encodeCwdDirname } from './paths.js';

export function grokChildSession(parent: SessionSource, childId: string): FoundSession | undefined {
  const found = parent.found;
  const cwd = grokIdentityOf(parent)?.cwd;
  if (!found.groupAbs || cwd === undefined || childId.includes('/') || childId === '..' || childId === '.')
    return undefined;
  const dir = join(dirname(found.groupAbs), encodeCwdDirname(cwd), childId);
  if (!isRealDirectory(dir)) return undefined;
  return {
    abs: dir,
    display: dir,
    id: basename(dir),
    groupName: basename(dirname(dir)),
    groupAbs: dirname(dir),
    format: 'grok',
  };
}
