/**
 * Writes corpora/ deterministically: the clean Grok sessions root and one damaged case per finding code,
 * each with expected.json (codes it must produce, codes it must not, exact locations). `npm run corpora`.
 * The corpora test regenerates into a temp dir and compares byte for byte, so the checked-in tree cannot drift.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { catalog } from '../src/checks/catalog.js';
import { GROUP, IDS, cleanTree } from './corpora/clean-root.js';
import { oracleTimeline } from './corpora/grok-builder.js';
import { damagedCases, type Case, type Content } from './corpora/cases.js';
import { generateBundles } from './corpora/cases-bundle.js';
import { generateStores } from './corpora/cases-store.js';
import { codexCases, codexCleanTree } from './corpora/cases-codex.js';
import { codexHomeCases } from './corpora/cases-codex-home.js';
import { hermesCases, hermesCleanTree } from './corpora/cases-hermes.js';
import { claudeCases, claudeCleanTree } from './corpora/cases-claude.js';
import { claudeConfigCases } from './corpora/cases-claude-config.js';
import { claudeHomeCases } from './corpora/cases-claude-home.js';
import { claudeCaptureCases, codexCaptureCases } from './corpora/cases-captures.js';
import { PI_LAYOUT, piCases, piCleanTree } from './corpora/cases-pi.js';
import { copilotCorpus } from './corpora/cases-copilot.js';
import { copilotHomeCases } from './corpora/cases-copilot-home.js';
import { GEMINI_CORPUS, geminiCases, geminiCleanTree } from './corpora/cases-gemini.js';
import { geminiHomeCases } from './corpora/cases-gemini-home.js';
import { OPENCODE_LAYOUT, opencodeCorpus } from './corpora/cases-opencode.js';

export interface Expected {
  description: string;
  command?: Case['command'] | 'verify' | 'verify-store';
  target?: string;
  args?: string[];
  setup?: Case['setup'];
  must: string[];
  mustNot: string[];
  onlyAt?: string[];
  /** No finding may be more severe than this (legitimate-cause cases). */
  maxSeverity?: Case['maxSeverity'];
  at?: Case['at'];
}

function writeTree(root: string, files: Map<string, Content>): void {
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof content === 'object' && !Buffer.isBuffer(content)) symlinkSync(content.symlink, path);
    else writeFileSync(path, content);
  }
}

/** Codes about a bag or the store, never produced by auditing sessions: no session case lists them. */
const storeOrBag = (code: string): boolean => code.startsWith('BUNDLE_') || code.startsWith('STORE_');

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

export function generate(outDir: string): string[] {
  const grokDir = join(outDir, 'grok');
  rmSync(grokDir, { recursive: true, force: true });
  const allCodes = catalog().map((e) => e.code);
  const written: string[] = [];

  const clean = cleanTree();
  writeTree(join(grokDir, 'clean'), clean.files);
  const cleanExpected: Expected = {
    description:
      'A realistic clean sessions root: a multi-turn session (tool calls, reasoning, plan, rewind points, a ' +
      "compaction, a rewind, a subagent), the subagent's own session, and a fork, written the way Grok's writer " +
      'writes (the pending ACP line lands after the xAI lines emitted meanwhile). It must produce no finding: that ' +
      'write order is how every Grok log is written (the timeline flags those lines L).',
    must: [],
    mustNot: allCodes.filter((code) => !storeOrBag(code)),
  };
  writeFileSync(join(grokDir, 'clean', 'expected.json'), json(cleanExpected));
  writeFileSync(
    join(grokDir, 'clean', 'expected-timeline.json'),
    json({
      session: `sessions/${GROUP}/${IDS.main}`,
      args: ['--include-subagents'],
      events: oracleTimeline(clean.main, { [IDS.sub]: clean.sub }),
    }),
  );
  written.push('grok/clean');

  const index: string[] = [
    '| case | must produce | what it is |',
    '|---|---|---|',
    `| clean | nothing | ${cleanExpected.description} |`,
  ];
  for (const c of damagedCases()) {
    const dir = join(grokDir, c.name);
    writeTree(dir, c.files);
    const allowed = new Set([...c.must, ...(c.allow ?? [])]);
    const expected: Expected = {
      description: c.description,
      must: c.must,
      mustNot: allCodes.filter(
        (code) =>
          !allowed.has(code) && !storeOrBag(code) && (c.command === 'inspect' || !code.startsWith('XREF_HEADLESS')),
      ),
    };
    if (c.command) expected.command = c.command;
    if (c.target) expected.target = c.target;
    if (c.args) expected.args = c.args;
    if (c.setup) expected.setup = c.setup;
    if (c.maxSeverity) expected.maxSeverity = c.maxSeverity;
    if (c.onlyAt) expected.onlyAt = c.onlyAt;
    if (c.at?.length) expected.at = c.at;
    writeFileSync(join(dir, 'expected.json'), json(expected));
    if (c.timeline) writeFileSync(join(dir, 'expected-timeline.json'), json(c.timeline));
    written.push(`grok/${c.name}`);
    index.push(
      `| ${c.name} | ${c.must.join(', ')}${c.maxSeverity ? ` (nothing above ${c.maxSeverity})` : ''} | ` +
        `${c.description} |`,
    );
  }
  writeFileSync(
    join(grokDir, 'README.md'),
    `# Grok Build corpora\n\nGenerated by \`npm run corpora\` (scripts/gen-corpora.ts); do not edit by hand. Each ` +
      `case directory holds a\nsessions tree in Grok's real layout (\`sessions/<encoded-cwd>/<session-id>/\`) and ` +
      `an \`expected.json\`: the codes\nthe audit must produce (\`must\`), the codes it must not (\`mustNot\`), ` +
      `exact locations (\`at\`), extra command-line\n\`args\`, and \`setup\` steps for entries git cannot store (a ` +
      `FIFO, a name that is not\nvalid UTF-8), which the test harness creates in a copy.\n\n${index.join('\n')}\n`,
  );
  written.push(
    ...generateAgentCorpora(
      outDir,
      'codex',
      'Codex CLI',
      'a `~/.codex` tree (`sessions/YYYY/MM/DD/rollout-*.jsonl`, `archived_sessions/`)',
      codexCleanTree(),
      [...codexCases(), ...codexCaptureCases(), ...codexHomeCases()],
      allCodes,
    ),
  );
  written.push(
    ...generateAgentCorpora(
      outDir,
      'claude',
      'Claude Code',
      'a `~/.claude` tree (`projects/<encoded-cwd>/<session>.jsonl` and its `<session>/subagents/` folder)',
      claudeCleanTree().files,
      [...claudeCases(), ...claudeCaptureCases(), ...claudeHomeCases(), ...claudeConfigCases()],
      allCodes,
    ),
  );
  written.push(...generateAgentCorpora(outDir, 'pi', 'Pi coding agent', PI_LAYOUT, piCleanTree(), piCases(), allCodes));
  written.push(
    ...generateAgentCorpora(
      outDir,
      ...GEMINI_CORPUS,
      geminiCleanTree(),
      [...geminiCases(), ...geminiHomeCases()],
      allCodes,
    ),
  );
  written.push(
    ...generateAgentCorpora(
      outDir,
      'hermes',
      'Hermes Agent',
      'a `~/.hermes` home (`state.db`, `sessions/<id>.jsonl`, `sessions/session_<id>.json`, `sessions/sessions.json`)',
      hermesCleanTree(),
      hermesCases(),
      allCodes,
    ),
  );
  const [copilotName, copilotAgent, copilotLayout, copilotClean, copilotCases] = copilotCorpus();
  written.push(
    ...generateAgentCorpora(
      outDir,
      copilotName,
      copilotAgent,
      copilotLayout,
      copilotClean,
      [...copilotCases, ...copilotHomeCases()],
      allCodes,
    ),
  );
  written.push(...generateAgentCorpora(outDir, 'opencode', 'opencode', OPENCODE_LAYOUT, ...opencodeCorpus(), allCodes));
  return written;
}

/**
 * The corpora of an agent whose sessions are files (Codex, Claude Code): a clean tree that must produce nothing,
 * and the damaged cases, each with its expected.json. Synthetic, shaped like the real files in ../shared/external.
 */
export function generateAgentCorpora(
  outDir: string,
  format: string,
  agent: string,
  layout: string,
  clean: Map<string, Content>,
  cases: Case[],
  allCodes: string[],
): string[] {
  const dir = join(outDir, format);
  rmSync(dir, { recursive: true, force: true });
  const written: string[] = [];
  writeTree(join(dir, 'clean'), clean);
  const cleanExpected: Expected = {
    description: `A realistic clean ${agent} tree: it must produce no finding at all.`,
    must: [],
    mustNot: allCodes.filter((code) => !storeOrBag(code)),
  };
  writeFileSync(join(dir, 'clean', 'expected.json'), json(cleanExpected));
  written.push(`${format}/clean`);
  const index: string[] = [
    '| case | must produce | what it is |',
    '|---|---|---|',
    `| clean | (nothing) | ${cleanExpected.description} |`,
  ];
  for (const c of cases) {
    writeTree(join(dir, c.name), c.files);
    const allowed = new Set([...c.must, ...(c.allow ?? [])]);
    const expected: Expected = {
      description: c.description,
      must: c.must,
      mustNot: allCodes.filter((code) => !allowed.has(code) && !storeOrBag(code) && !code.startsWith('XREF_HEADLESS')),
    };
    if (c.target) expected.target = c.target;
    if (c.args) expected.args = c.args;
    if (c.maxSeverity) expected.maxSeverity = c.maxSeverity;
    if (c.onlyAt) expected.onlyAt = c.onlyAt;
    if (c.at?.length) expected.at = c.at;
    writeFileSync(join(dir, c.name, 'expected.json'), json(expected));
    written.push(`${format}/${c.name}`);
    index.push(
      `| ${c.name} | ${c.must.join(', ')}${c.maxSeverity ? ` (nothing above ${c.maxSeverity})` : ''} | ` +
        `${c.description} |`,
    );
  }
  writeFileSync(
    join(dir, 'README.md'),
    `# ${agent} corpora\n\nGenerated by \`npm run corpora\` (scripts/gen-corpora.ts, ` +
      `scripts/corpora/cases-${format}.ts); do not edit by hand. Synthetic\nsessions shaped line for line like the ` +
      `real recorded files in ../shared/external/${format} (which are third-party data and\nare not copied here). ` +
      `Each case directory holds ${layout} and an \`expected.json\`: the codes the audit must\nproduce (\`must\`), ` +
      `the codes it must not (\`mustNot\`), and exact locations (\`at\`).\n\n${index.join('\n')}\n`,
  );
  return written;
}

/**
 * The bundle cases (bags made from the clean corpus, then damaged), each with expected.json. `cleanDir` names the
 * clean corpus as the bags record it: pass a relative path so no machine's absolute paths end up in a bag.
 */
export async function generateBundleCorpora(outDir: string, cleanDir: string): Promise<string[]> {
  const cases = await generateBundles(outDir, cleanDir);
  const bundleCodes = catalog()
    .map((e) => e.code)
    .filter((c) => c.startsWith('BUNDLE_'));
  const index = ['| case | must produce | what it is |', '|---|---|---|'];
  for (const c of cases) {
    const allowed = new Set([...c.must, ...(c.allow ?? [])]);
    const expected: Expected = {
      description: c.description,
      command: 'verify',
      target: c.target,
      must: c.must,
      mustNot: bundleCodes.filter((code) => !allowed.has(code)),
    };
    if (c.args) expected.args = c.args;
    if (c.maxSeverity) expected.maxSeverity = c.maxSeverity;
    if (c.at?.length) expected.at = c.at;
    writeFileSync(join(c.dir, 'expected.json'), json(expected));
    index.push(`| ${c.name} | ${c.must.join(', ') || '(nothing)'} | ${c.description} |`);
  }
  writeFileSync(
    join(outDir, 'bundles', 'README.md'),
    `# Evidence bag corpora\n\nGenerated by \`npm run corpora\` (scripts/corpora/cases-bundle.ts) from the clean ` +
      `Grok corpus; do not edit by hand.\nEach case holds a bag made by \`session-audit bundle\`, damaged ` +
      `afterwards the way the case describes, and an\n\`expected.json\` for \`session-audit verify\` (\`target\` ` +
      `is the bag, \`args\` are relative to the case directory).\nbag-info.txt records the Node, zlib and OS of ` +
      `the machine that made the bag, so regenerating elsewhere changes the\ntag files; the payload and its ` +
      `manifests do not change. Every bag is dated 2026-08-19 (its Bagging-Date and its archive entries: pinned,\n` +
      `where a bag is otherwise dated the day it is made).\n\n${index.join('\n')}\n`,
  );
  return cases.map((c) => `bundles/${c.name}`);
}

/**
 * The store cases (stores archived from the clean Codex corpus, then damaged), each with expected.json for
 * `verify --store` (`target` is the store). The records and the index name the machine's paths and times.
 */
export function generateStoreCorpora(outDir: string, codexClean: string): string[] {
  const cases = generateStores(outDir, codexClean);
  const codes = catalog()
    .map((e) => e.code)
    .filter((c) => storeOrBag(c));
  const index = ['| case | must produce | what it is |', '|---|---|---|'];
  for (const c of cases) {
    const allowed = new Set([...c.must, ...(c.allow ?? [])]);
    const expected: Expected = {
      description: c.description,
      command: 'verify-store',
      target: 'store',
      ...(c.setup ? { setup: c.setup } : {}),
      must: c.must,
      mustNot: codes.filter((code) => !allowed.has(code)),
    };
    if (c.at?.length) expected.at = c.at;
    writeFileSync(join(c.dir, 'expected.json'), json(expected));
    index.push(`| ${c.name} | ${c.must.join(', ') || '(nothing)'} | ${c.description} |`);
  }
  writeFileSync(
    join(outDir, 'stores', 'README.md'),
    `# Evidence store corpora\n\nGenerated by \`npm run corpora\` (scripts/corpora/cases-store.ts) from the clean ` +
      `Codex corpus; do not edit by hand.\nEach case holds a store made by \`session-audit archive\`, damaged ` +
      `afterwards the way the case describes, and an\n\`expected.json\` for \`session-audit verify --store\` ` +
      `(\`target\` is the store; \`setup\` is applied to a scratch copy first).\nThe capture records, ` +
      `head.json and index.sqlite name the paths and times of the run that made them, so regenerating\nchanges ` +
      `them; the objects do not change.\n\n${index.join('\n')}\n`,
  );
  return cases.map((c) => `stores/${c.name}`);
}

if (process.argv[1] && resolve(process.argv[1]).endsWith('gen-corpora.js')) {
  const out = resolve(process.argv[2] ?? 'corpora');
  for (const w of generate(out)) console.log(`wrote corpora/${w}`);
  for (const w of await generateBundleCorpora(out, relative(process.cwd(), join(out, 'grok', 'clean')) || '.'))
    console.log(`wrote corpora/${w}`);
  for (const w of generateStoreCorpora(out, join(out, 'codex', 'clean'))) console.log(`wrote corpora/${w}`);
}
