/**
 * OPENCODE_PERMISSION_WIDENED (formats/opencode.md §6.1, §6.6, §8 #13, #14): a session's permission ruleset
 * (`session.permission`: rules `{permission, pattern, action}`, the last match wins) that grants more than before,
 * as E3's session.updated events record each change; and a subagent's child session whose ruleset lacks a `deny` of
 * its parent's (opencode derives the child's from the parent's denies).
 */
import { defineCheck } from '../../../checks/define.js';
import { DB_KIND, type DbFacts } from '../db.js';

interface Rule {
  permission: string;
  pattern: string;
  action: string;
}

/** A ruleset as written (a JSON text in the column, an array in an event), its well-formed rules. */
export function rulesOf(v: unknown): Rule[] {
  let x = v;
  if (typeof x === 'string') {
    try {
      x = JSON.parse(x) as unknown;
    } catch {
      return [];
    }
  }
  if (!Array.isArray(x)) return [];
  return x.filter(
    (r): r is Rule =>
      typeof r === 'object' &&
      r !== null &&
      typeof (r as Rule).permission === 'string' &&
      typeof (r as Rule).pattern === 'string' &&
      typeof (r as Rule).action === 'string',
  );
}

const key = (r: Rule): string => `${r.permission} ${r.pattern}`;
const show = (r: Rule): string => `${r.action} ${r.permission} ${JSON.stringify(r.pattern)}`;
/** What a ruleset decides for each (permission, pattern) it names: its last rule for it. */
const decisions = (rules: readonly Rule[]): Map<string, Rule> => new Map(rules.map((r) => [key(r), r]));

/** What `after` grants that `before` did not: a rule now allow that was not, a deny that is gone. */
export function gains(before: readonly Rule[], after: readonly Rule[]): string[] {
  const b = decisions(before);
  const a = decisions(after);
  const out: string[] = [];
  for (const [k, r] of a) if (r.action === 'allow' && b.get(k)?.action !== 'allow') out.push(show(r));
  for (const [k, r] of b) if (r.action === 'deny' && !a.has(k)) out.push(`no longer ${show(r)}`);
  return out;
}

const everything = (rules: readonly Rule[]): boolean =>
  rules.some((r) => r.permission === '*' && r.pattern === '*' && r.action === 'allow');

const isFacts = (v: unknown): v is DbFacts =>
  typeof v === 'object' && v !== null && Array.isArray((v as DbFacts).permissionSteps);

export const opencodePermission = defineCheck({
  id: 'opencode-permission',
  validate: false,
  codes: {
    OPENCODE_PERMISSION_WIDENED: {
      severity: 'warning',
      title: "A session's permission ruleset grants more than before, or than its parent's",
      help:
        "opencode keeps each session's own rules in session.permission (the last matching rule wins, over the " +
        "agent's rules from opencode.json): a prompt's `tools` map replaces them, the HTTP API merges rules in, and " +
        'from 1.16 each change is a session.updated event. A change that allows what was not allowed, or drops a ' +
        "deny, is a widening (an error when it allows everything); a subagent's child session must keep every deny " +
        "of its parent (opencode derives it so), and one that lacks one was edited. Approvals ('always') live in " +
        'memory and are not seen.',
    },
  },
  create(ctx) {
    return {
      doc(d) {
        if (d.kind !== DB_KIND || !isFacts(d.value)) return;
        const f = d.value;
        let prev: { session: string; rules: Rule[] } | undefined;
        for (const step of f.permissionSteps) {
          const rules = rulesOf(step.permission);
          if (prev?.session === step.session) {
            const g = gains(prev.rules, rules);
            if (g.length)
              ctx.emit(
                'OPENCODE_PERMISSION_WIDENED',
                { file: d.file },
                `session ${step.session}: its ruleset at event seq ${step.seq} grants more than before: ` +
                  `${g.slice(0, 5).join('; ')}${g.length > 5 ? '; …' : ''}`,
                { key: `${step.session}:${step.seq}`, ...(everything(rules) ? { severity: 'error' as const } : {}) },
              );
          }
          prev = { session: step.session, rules };
        }
        const byId = new Map(f.sessions.map((s) => [s.id, s]));
        for (const s of f.sessions) {
          const parent = s.parentId !== undefined ? byId.get(s.parentId) : undefined;
          if (!parent) continue;
          const own = decisions(rulesOf(s.permission));
          const lost = rulesOf(parent.permission).filter(
            (r) => r.action === 'deny' && own.get(key(r))?.action !== 'deny',
          );
          if (lost.length)
            ctx.emit(
              'OPENCODE_PERMISSION_WIDENED',
              { file: d.file },
              `child session ${s.id} lacks ${lost.length} deny rule(s) of its parent ${parent.id}: ` +
                `${lost.slice(0, 5).map(show).join('; ')}${lost.length > 5 ? '; …' : ''}`,
              { key: `${s.id}:parent` },
            );
        }
      },
    };
  },
});
