/**
 * HTML escaping for the HTML report. Session content is hostile: every string from the input goes through
 * `h` (text and attribute values alike) or `hPre` (multi-line text in <pre>). Control characters, bidi
 * overrides, invisible format characters and lone surrogates are shown as visible `\u{…}` escapes, as the
 * terminal renderers do (escape.ts); then the five HTML-significant characters become entities.
 */
import { escapeText } from './escape.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const HTML_SPECIAL = /[&<>"']/g;

const visibleSurrogates = (s: string): string =>
  s.replace(LONE_SURROGATE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
const entities = (s: string): string => s.replace(HTML_SPECIAL, (c) => ENTITY[c]!);

/** Text the page script sets as text nodes: control, bidi and invisible characters and lone surrogates visible. */
export const displayText = (s: string): string => escapeText(visibleSurrogates(s));

/** Like `displayText`, but line breaks and tabs stay real (for <pre>). */
export const displayPre = (s: string): string =>
  s
    .split(/\r?\n/)
    .map((line) => line.split('\t').map(displayText).join('\t'))
    .join('\n');

/** Safe in element text and in double- or single-quoted attribute values. */
export function h(s: string | number | undefined | null): string {
  if (s === undefined || s === null) return '';
  if (typeof s === 'number') return String(s);
  return entities(escapeText(visibleSurrogates(s)));
}

/** Like `h`, but line breaks and tabs stay real (for <pre>); every other control character is shown escaped. */
export function hPre(s: string): string {
  return s
    .split(/\r?\n/)
    .map((line) => line.split('\t').map(h).join('\t'))
    .join('\n');
}

/** Shortened session id as the lineage renderers show it: `019b1000…c002`. */
export const shortId = (id: string): string => (id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** Clip to n characters (by code point) with an ellipsis. */
export function clip(s: string, n: number): string {
  const cps = Array.from(s);
  return cps.length > n ? `${cps.slice(0, n - 1).join('')}…` : s;
}
