/**
 * The finding catalog for `checks`: from dist/catalog.json, written at build time (scripts/gen-catalog.ts), so
 * listing the codes does not load every check and format; from the live catalog when not built (tests run src).
 */
import { readFileSync } from 'node:fs';
import type { CatalogEntry } from '../checks/catalog.js';

export async function loadCatalog(): Promise<readonly CatalogEntry[]> {
  if (import.meta.url.endsWith('.js')) {
    try {
      return JSON.parse(readFileSync(new URL('../../catalog.json', import.meta.url), 'utf8')) as CatalogEntry[];
    } catch {
      // Not built with the catalog: the live one below.
    }
  }
  return (await import('../checks/catalog.js')).catalog();
}
