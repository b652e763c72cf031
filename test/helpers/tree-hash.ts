/** A fingerprint of every entry of a tree (type, mode, mtime, size, content hash, link target) for read-only checks. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** `meta: false` compares content and symlink targets only (for trees written at different times). */
export function treeState(root: string, { meta = true }: { meta?: boolean } = {}): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      let tag = meta ? `${st.mode.toString(8)} ${st.mtimeMs}` : st.isDirectory() ? 'dir' : '';
      if (st.isSymbolicLink()) tag += ` -> ${readlinkSync(abs)}`;
      else if (st.isFile()) tag += ` ${st.size} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`;
      out.set(r, tag);
      if (st.isDirectory()) visit(abs, r);
    }
  };
  visit(root, '');
  return out;
}

export function diffStates(before: Map<string, string>, after: Map<string, string>): string[] {
  const d: string[] = [];
  for (const [k, v] of before) if (after.get(k) !== v) d.push(`${after.has(k) ? 'changed' : 'removed'}: ${k}`);
  for (const k of after.keys()) if (!before.has(k)) d.push(`created: ${k}`);
  return d;
}
