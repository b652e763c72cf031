import type { FoundSession } from '../model/found.js';

/**
 * The file a session's title (the path printed above its table or report) names: a session stored as one file
 * beside others. A place in it is then written `:line`, the file being the title.
 */
export function fileTitle(f: FoundSession): string | undefined {
  if (!f.members) return undefined;
  const name = f.display.slice(f.display.lastIndexOf('/') + 1);
  return f.members.includes(name) ? name : undefined;
}
