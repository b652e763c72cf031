/**
 * Files as other tools capture them, shaped like the real ones in ../shared/external (no text copied): Codex and
 * Claude Code logs that end without a final newline, Claude Code slices that start mid-session (the first record a
 * `progress` or `permission-mode` line, a parent outside the file), and a Claude sub-agent transcript audited on
 * its own, whose records link into the session's transcript two folders up.
 */
import { ClaudeTranscript } from './claude-builder.js';
import { CLAUDE_CWD, CLAUDE_IDS, PROJECT, claudeCleanTree } from './cases-claude.js';
import { codexCleanTree } from './cases-codex.js';
import type { Case, Files } from './case-kit.js';

const lines = (s: string): string[] => s.split('\n').slice(0, -1);
const unterminated = (ls: string[]): string => ls.join('\n');
const mainPath = `${PROJECT}/${CLAUDE_IDS.main}.jsonl`;

export function codexCaptureCases(): Case[] {
  const clean = codexCleanTree();
  const [path, content] = [...clean].find(([p]) => p.startsWith('sessions/'))!;
  const ls = lines(content as string);
  return [
    {
      name: 'capture-no-final-newline',
      description:
        'A rollout captured by another tool: every record intact, but the file ends without its final newline ' +
        '(a warning on the last line, nothing else).',
      must: ['JSONL_UNTERMINATED_TAIL'],
      onlyAt: ['JSONL_UNTERMINATED_TAIL'],
      at: [{ code: 'JSONL_UNTERMINATED_TAIL', file: path.split('/').pop()!, line: ls.length, severity: 'warning' }],
      maxSeverity: 'warning',
      files: new Map([[path, unterminated(ls)]]),
    },
  ];
}

type Rec = { type?: string; uuid?: string; parentUuid?: string | null; data?: { type?: string } };
const rec = (l: string): Rec => JSON.parse(l) as Rec;

export function claudeCaptureCases(): Case[] {
  const cases: Case[] = [];
  const tree = claudeCleanTree();
  const all = lines(tree.files.get(mainPath) as string);
  const file = `${CLAUDE_IDS.main}.jsonl`;

  // A slice from the sub-agent's progress line to the end of its turn: the first record's parent is outside.
  {
    const from = all.findIndex((l) => rec(l).data?.type === 'agent_progress');
    const to = all.findIndex((l, i) => i > from && rec(l).type === 'system');
    const ls = all.slice(from, to + 1);
    cases.push({
      name: 'capture-slice-from-progress',
      description:
        'A slice of a transcript captured at a checkpoint: it starts at a sub-agent progress line, after the Task ' +
        'call it reports on, and ends without a final newline. The progress line and the Task result hang from the ' +
        'call outside the slice (two missing parents), and the result answers a call the file does not hold.',
      must: ['CLAUDE_PARENT_MISSING', 'TOOL_ORPHAN_RESULT', 'JSONL_UNTERMINATED_TAIL'],
      onlyAt: ['CLAUDE_PARENT_MISSING', 'TOOL_ORPHAN_RESULT', 'JSONL_UNTERMINATED_TAIL'],
      at: [
        { code: 'CLAUDE_PARENT_MISSING', file, line: 1 },
        { code: 'CLAUDE_PARENT_MISSING', file, line: 2 },
        { code: 'TOOL_ORPHAN_RESULT', file, line: 2 },
        { code: 'JSONL_UNTERMINATED_TAIL', file, line: ls.length },
      ],
      files: new Map([[mainPath, unterminated(ls)]]),
    });
  }

  // A slice that starts at a permission-mode record (no parent of its own) before a prompt chained outside.
  {
    const prompt = all.findIndex((l) => rec(l).type === 'user' && l.includes('Rename parse to parse_strict'));
    const mode = JSON.stringify({ type: 'permission-mode', permissionMode: 'default', sessionId: CLAUDE_IDS.main });
    const ls = [mode, ...all.slice(prompt, prompt + 2)];
    cases.push({
      name: 'capture-slice-from-permission-mode',
      description:
        'A slice that starts with a permission-mode record, then a prompt whose parent is the last record before ' +
        'the slice: one missing parent, on the prompt; the mode record needs none.',
      must: ['CLAUDE_PARENT_MISSING', 'JSONL_UNTERMINATED_TAIL'],
      onlyAt: ['CLAUDE_PARENT_MISSING'],
      at: [{ code: 'CLAUDE_PARENT_MISSING', file, line: 2 }],
      files: new Map([[mainPath, unterminated(ls)]]),
    });
  }

  cases.push(...subagentAlone(tree.files, all));
  return cases;
}

/**
 * A compaction sub-agent (file `agent-acompact-<id>.jsonl`, as Claude Code 2.1 writes it): its first records are
 * context copied from the session, each parented to a record of the session's transcript.
 */
function subagentAlone(clean: Files, main: string[]): Case[] {
  const agent = 'acompact-5e3c1a';
  const dir = `${PROJECT}/${CLAUDE_IDS.main}/subagents`;
  const target = `${dir}/agent-${agent}.jsonl`;
  const uuids = main.map((l) => rec(l).uuid).filter((u): u is string => typeof u === 'string');
  const build = (lostParent?: string): string => {
    const t = new ClaudeTranscript({
      sessionId: CLAUDE_IDS.main,
      cwd: CLAUDE_CWD,
      startMs: Date.UTC(2026, 2, 10, 15, 0, 0),
      seed: 7,
      agentId: agent,
    });
    const context = [
      'Earlier: parse() was made total.',
      'A review found no other panics.',
      'Summarise for compaction.',
    ];
    context.forEach((text, i) => {
      t.push('user', { message: { role: 'user', content: text } }, { parent: uuids[5 + 7 * i]! });
    });
    if (lostParent !== undefined)
      t.push(
        'user',
        { message: { role: 'user', content: 'And keep the doc comment.' } },
        {
          parent: lostParent,
        },
      );
    t.respond().text('Summary: parse() returns Option<u32>, documented; no other panics in src/.', 'end_turn');
    return t.render();
  };
  const withTranscript = (sub: string): Files =>
    new Map([
      [mainPath, clean.get(mainPath)!],
      [target, sub],
    ]);
  const lost = 'feedbeef-0000-4000-8000-00000000dead';
  return [
    {
      name: 'subagent-alone-with-transcript',
      description:
        "A compaction sub-agent's transcript audited on its own: its first records are parented to records of the " +
        "session's transcript two folders up, which is there, so every link resolves (no finding).",
      target,
      must: [],
      files: withTranscript(build()),
    },
    {
      name: 'subagent-alone-parent-lost',
      description:
        "The same sub-agent audited alone, one of its records parented to a uuid that the session's transcript " +
        'does not have either: one CLAUDE_PARENT_MISSING, on that record.',
      target,
      must: ['CLAUDE_PARENT_MISSING'],
      onlyAt: ['CLAUDE_PARENT_MISSING'],
      at: [{ code: 'CLAUDE_PARENT_MISSING', file: `agent-${agent}.jsonl`, line: 4 }],
      files: withTranscript(build(lost)),
    },
    {
      name: 'subagent-alone-without-transcript',
      description:
        "The sub-agent's transcript captured without the session's: its links cannot be resolved, which is one " +
        'CLAUDE_TRANSCRIPT_MISSING for the file, not an error per record.',
      target,
      must: ['CLAUDE_TRANSCRIPT_MISSING'],
      onlyAt: ['CLAUDE_TRANSCRIPT_MISSING'],
      at: [{ code: 'CLAUDE_TRANSCRIPT_MISSING', file: `agent-${agent}.jsonl` }],
      maxSeverity: 'warning',
      files: new Map([[target, build()]]),
    },
  ];
}
