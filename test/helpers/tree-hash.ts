/** A fingerprint of every entry of a tree (type, mode, mtime, size, content hash, link target) for read-only checks. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** `meta: false` compares content and symlink targets only (for trees written at different times). */
export function treeState(root: string, { meta = true }: { meta?: boolean } = {}): Map<string, string> {
  const out = new Map<string, string>();
  // Names are read as bytes (a name that is not valid UTF-8 is evidence too), shown as latin1 (one char a byte).
  const visit = (dir: Buffer, rel: string): void => {
    const names = readdirSync(dir, { encoding: 'buffer' }).sort(Buffer.compare);
    for (const b of names) {
      const abs = Buffer.concat([dir, Buffer.from('/'), b]);
      const name = b.toString('latin1');
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      let tag = meta ? `${st.mode.toString(8)} ${st.mtimeMs}` : st.isDirectory() ? 'dir' : '';
      if (st.isSymbolicLink()) tag += ` -> ${readlinkSync(abs)}`;
      else if (st.isFile()) tag += ` ${st.size} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`;
      out.set(r, tag);
      if (st.isDirectory()) visit(abs, r);
    }
  };
  visit(Buffer.from(root), '');
  return out;
}

export function diffStates(before: Map<string, string>, after: Map<string, string>): string[] {
  const d: string[] = [];
  for (const [k, v] of before) if (after.get(k) !== v) d.push(`${after.has(k) ? 'changed' : 'removed'}: ${k}`);
  for (const k of after.keys()) if (!before.has(k)) d.push(`created: ${k}`);
  return d;
}
