/** Every damaged corpus case, grouped by area. */
import { baseCases } from './cases-base.js';
import { toolCases } from './cases-tool.js';
import { xrefCases } from './cases-xref.js';
import { timeCases } from './cases-time.js';
import { lineageCase } from './cases-lineage.js';
import { secretCases } from './cases-secrets.js';
import { grokSearchCases } from './cases-grok-search.js';
import { grokHomeCases } from './cases-grok-home.js';
import { homeNameCases } from './cases-home-names.js';
import { grokSandboxCases } from './cases-grok-sandbox.js';
export type { Case, Content, Expectation, Setup } from './case-kit.js';

export function damagedCases() {
  return [
    ...baseCases(),
    ...xrefCases(),
    ...toolCases(),
    ...timeCases(),
    lineageCase(),
    ...secretCases(),
    ...grokSearchCases(),
    ...grokHomeCases(),
    ...homeNameCases(),
    ...grokSandboxCases(),
  ];
}
