/**
 * Terminal safety: session content must never drive the reviewer's terminal. Every control character (C0,
 * DEL, C1), bidirectional override and invisible format character is shown as a visible escape instead.
 */

// C0 controls, DEL, C1 controls, and Unicode format characters that reorder or hide text.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

export function escapeText(s: string): string {
  return s.replace(UNSAFE, (c) => NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16).padStart(4, '0')}}`);
}

/** True if the string contains nothing that escapeText would change. */
export const isSafe = (s: string): boolean => !new RegExp(UNSAFE.source).test(s);
