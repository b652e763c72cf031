/**
 * Where each file goes inside a bag: `data/<agent>/<session-id>/<file>`, every path component reduced to
 * characters no BagIt tool encodes or decodes (letters, digits, `.`, `_`, `-`, `+`, `=`, `@`, `,`). RFC 8493
 * percent-encodes `%` in manifests and bagit-python does not decode it, so a Grok cwd folder (`%2Fhome%2F…`) kept
 * as a name makes a bag that tool rejects. Names stay unique, also for file systems that ignore case. The original
 * path of every file is recorded (inventory.json, the custody statement), never lost.
 */

const SAFE = /[^A-Za-z0-9._+=@,-]/g;

/** One path component made safe: other characters become `_`; `.`, `..` and the empty name are spelled out. */
export function safeComponent(name: string): string {
  const s = name.replace(SAFE, '_');
  if (s === '' || s === '.' || s === '..') return `_${s.replace(/\./g, 'dot')}`;
  return s;
}

export const safePath = (rel: string): string => rel.split('/').map(safeComponent).join('/');

/** Hands out unique bag paths: a name that would collide (case ignored) gets `~2`, `~3`, … before its extension. */
export class BagLayout {
  private readonly taken = new Set<string>();

  private claim(path: string): string {
    const dot = path.lastIndexOf('.');
    const slash = path.lastIndexOf('/');
    const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
    let p = path;
    for (let i = 2; this.taken.has(p.toLowerCase()); i++) p = `${stem}~${i}${ext}`;
    this.taken.add(p.toLowerCase());
    return p;
  }

  /** The directory of a session under data/ (without the `data/` prefix). */
  sessionDir(agent: string, id: string): string {
    return this.claim(`${safeComponent(agent)}/${safeComponent(id)}`);
  }

  /**
   * The bag path of one file of a session. A home's file kept beside the home (`../<name>`, read/home-files.ts)
   * goes in the home's own folder under its plain name: no member of a bag is ever outside `data/<agent>/<id>/`.
   */
  file(sessionDir: string, rel: string): string {
    const inside = rel.startsWith('../') ? rel.slice(3) : rel;
    return this.claim(`data/${sessionDir}/${safePath(inside)}`);
  }
}
