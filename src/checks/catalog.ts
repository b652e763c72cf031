/**
 * The finding catalog: every code, with its severity, title and help, and the check that owns it, built once from
 * the generic checks, every format's checks, the bundle codes and the store's. Each agent's notes on a generic code
 * are appended to its help. `FindingCode` is the union of every code, derived from the same lists.
 */
import { FORMATS } from '../formats/registry.js';
import type { FormatModule } from '../formats/types.js';
import type { CodeInfo } from '../model/finding.js';
import { BUNDLE_CODES } from './bundle-codes.js';
import type { CodesOf } from './define.js';
import { CHECKS, HOME_CHECKS, ROOT_CHECKS } from './registry.js';
import { STORE_CODES } from './store-codes.js';

type FormatCheck = (typeof FORMATS)[number]['checks'][number];
type FormatRootCheck = NonNullable<
  (typeof FORMATS)[number] extends infer F ? (F extends { rootChecks: infer R } ? R : never) : never
>;

type FormatHomeCheck = NonNullable<
  (typeof FORMATS)[number] extends infer F ? (F extends { home: { checks: infer H } } ? H : never) : never
>;

/** Every finding code this build can report. Codes are API: add, never rename. */
export type FindingCode =
  | CodesOf<(typeof CHECKS)[number]>
  | CodesOf<(typeof ROOT_CHECKS)[number]>
  | CodesOf<(typeof HOME_CHECKS)[number]>
  | CodesOf<FormatCheck>
  | CodesOf<FormatRootCheck extends readonly (infer C)[] ? C : never>
  | CodesOf<FormatHomeCheck extends readonly (infer C)[] ? C : never>
  | keyof typeof BUNDLE_CODES
  | keyof typeof STORE_CODES;

export interface CatalogEntry extends CodeInfo {
  code: FindingCode;
  check: string;
}

function build(): CatalogEntry[] {
  const owners: Array<{ id: string; codes: Record<string, CodeInfo> }> = [
    ...ROOT_CHECKS,
    ...FORMATS.flatMap((f) => [...(('rootChecks' in f ? f.rootChecks : undefined) ?? [])]),
    ...CHECKS,
    ...FORMATS.flatMap((f) => [...f.checks]),
    ...HOME_CHECKS,
    ...(FORMATS as readonly FormatModule[]).flatMap((f) => [...(f.home?.checks ?? [])]),
    { id: 'bundle', codes: BUNDLE_CODES },
    { id: 'store', codes: STORE_CODES },
  ];
  const out: CatalogEntry[] = [];
  const seen = new Set<string>();
  for (const c of owners) {
    for (const [code, info] of Object.entries(c.codes)) {
      if (seen.has(code)) continue;
      seen.add(code);
      const notes = FORMATS.flatMap((f) => {
        const note = 'codeNotes' in f ? (f.codeNotes as Readonly<Record<string, string>>)[code] : undefined;
        return note === undefined ? [] : [`${f.displayName}: ${note}`];
      });
      const help = notes.length ? `${info.help}\n\n${notes.join('\n\n')}` : info.help;
      out.push({ code: code as FindingCode, check: c.id, severity: info.severity, title: info.title, help });
    }
  }
  return out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

let built: readonly CatalogEntry[] | undefined;
let byCode: ReadonlyMap<string, CatalogEntry> | undefined;

/** Every code, sorted, with the check that owns it (a code two checks share is listed under the first above). */
export function catalog(): readonly CatalogEntry[] {
  built ??= build();
  return built;
}

export function codeInfo(code: string): CatalogEntry | undefined {
  byCode ??= new Map(catalog().map((e) => [e.code, e]));
  return byCode.get(code);
}

export const isFindingCode = (code: string): code is FindingCode => codeInfo(code) !== undefined;
