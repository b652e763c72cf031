/** BagIt 1.0 (RFC 8493) text formats: bagit.txt, manifests (with path percent-encoding), bag-info.txt, Payload-Oxum. */

export const BAGIT_TXT = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n';

export const ALGORITHMS = ['sha256', 'sha512'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** The names of the payload and tag manifests; the algorithm is the first group. */
export const PAYLOAD_MANIFEST = /^manifest-([a-z0-9]+)\.txt$/;
export const TAG_MANIFEST = /^tagmanifest-([a-z0-9]+)\.txt$/;

/** RFC 8493 §2.1.3: `%`, CR and LF in a path are percent-encoded in manifests. */
export const encodePath = (p: string): string => p.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const decodePath = (p: string): string =>
  p
    .replace(/%0[Aa]/g, '\n')
    .replace(/%0[Dd]/g, '\r')
    .replace(/%25/g, '%');

export function manifestText(entries: ReadonlyArray<{ path: string; digest: string }>): string {
  return entries.map((e) => `${e.digest}  ${encodePath(e.path)}\n`).join('');
}

export interface ManifestLine {
  digest: string;
  path: string;
  line: number;
}

/** Parse a manifest; malformed lines are returned separately. */
export function parseManifest(text: string): { entries: ManifestLine[]; bad: number[] } {
  const entries: ManifestLine[] = [];
  const bad: number[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    if (l === '') return;
    const m = /^([0-9a-fA-F]+)[ \t]+(.+)$/.exec(l);
    if (!m) bad.push(i + 1);
    else entries.push({ digest: m[1]!.toLowerCase(), path: decodePath(m[2]!), line: i + 1 });
  });
  return { entries, bad };
}

export type BagInfo = Array<[string, string]>;

/** RFC 8493 §2.2.2: lines of a tag file SHOULD be at most 79 characters; longer values are continued. */
export const TAG_LINE = 79;

/**
 * One tag as `Label: value` lines: a value that does not fit in 79 characters is wrapped at spaces onto lines
 * indented by two spaces (RFC 8493 §2.2.2); a word longer than a line (a digest) stays whole. A newline in a value
 * starts a continuation line too.
 */
export function tagLines(label: string, value: string): string {
  const lines: string[] = [];
  for (const [i, part] of value.split(/\r?\n/).entries()) {
    let line = i === 0 ? `${label}:` : ' ';
    for (const word of part.split(' ')) {
      if (line.length + 1 + word.length > TAG_LINE && line.trim() !== '' && line !== `${label}:`) {
        lines.push(line);
        line = ' ';
      }
      line += ` ${word}`;
    }
    lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

export function bagInfoText(info: BagInfo): string {
  return info.map(([k, v]) => tagLines(k, v)).join('');
}

/** Parse bag-info.txt (labels may repeat; continuation lines start with whitespace and continue the value). */
export function parseBagInfo(text: string): BagInfo {
  const out: BagInfo = [];
  for (const l of text.split(/\r?\n/)) {
    if (l === '') continue;
    if (/^[ \t]/.test(l) && out.length) {
      out[out.length - 1]![1] += ` ${l.trim()}`;
      continue;
    }
    const i = l.indexOf(':');
    if (i > 0) out.push([l.slice(0, i).trim(), l.slice(i + 1).trim()]);
  }
  return out;
}

export const payloadOxum = (bytes: number, files: number): string => `${bytes}.${files}`;

/** Member paths that could escape an extraction directory: absolute, drive letters, `..`, backslashes, NUL. */
export function unsafePath(p: string): string | undefined {
  if (p.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(p)) return 'a drive letter';
  if (p.includes('\\')) return 'a backslash';
  if (p.includes('\0')) return 'a NUL byte';
  if (p.split('/').some((s) => s === '..')) return 'a ".." component';
  return undefined;
}
