/**
 * A fingerprint of a tree for the read-only guarantee: every entry (the root included) with its type, mode,
 * size, mtime, ctime (any inode change, e.g. a chmod or a utimes that put an mtime back), content hash for
 * regular files and target for symlinks. Names are read as raw bytes, so non-UTF-8 names are fingerprinted too
 * (test/helpers/tree-hash.ts decodes names and cannot open those). FIFOs, sockets and devices are never opened.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

const SLASH = Buffer.from('/');

export function fingerprint(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (abs: Buffer, rel: string): void => {
    const st = lstatSync(abs, { bigint: true });
    let tag = `${st.mode.toString(8)} ${st.size} m${st.mtimeNs} c${st.ctimeNs}`;
    if (st.isSymbolicLink()) tag += ` -> ${readlinkSync(abs, { encoding: 'buffer' }).toString('hex')}`;
    else if (st.isFile()) tag += ` ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`;
    out.set(rel, tag);
    if (!st.isDirectory()) return;
    const names = (readdirSync(abs, { encoding: 'buffer' }) as Buffer[]).sort(Buffer.compare);
    for (const n of names) visit(Buffer.concat([abs, SLASH, n]), `${rel}/${n.toString('hex')}`);
  };
  visit(Buffer.from(root), '.');
  return out;
}

/** Differences, with names decoded for reading. */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const show = (k: string): string =>
    k
      .split('/')
      .map((h, i) => (i === 0 ? h : JSON.stringify(Buffer.from(h, 'hex').toString('utf8'))))
      .join('/');
  const d: string[] = [];
  for (const [k, v] of before)
    if (after.get(k) !== v)
      d.push(`${after.has(k) ? 'changed' : 'removed'}: ${show(k)} (${v} → ${after.get(k) ?? 'gone'})`);
  for (const k of after.keys()) if (!before.has(k)) d.push(`created: ${show(k)}`);
  return d;
}
