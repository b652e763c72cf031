/** SESSION_*: the session directory as a whole — is it loadable, can every file be read, is every file expected. */
import type { InventoryEntry } from '../model/inventory.js';
import { defineCheck } from './define.js';

const describeType = (e: InventoryEntry): string =>
  e.type === 'fifo' ? 'a FIFO (named pipe)' : e.type === 'socket' ? 'a socket' : e.type.endsWith('device') ? `a ${e.type.replace('-', ' ')}` : `a ${e.type}`;

export const sessionFiles = defineCheck({
  id: 'session-files',
  validate: true,
  codes: {
    SESSION_SUMMARY_MISSING: {
      severity: 'error',
      title: 'The session has no summary.json',
      help: 'summary.json is the commit marker that makes a directory a session: without it (as a regular file) Grok does not list the session and cannot resume it. Causes: a crash between the first log append and the first summary write, TTL cleanup that deleted an old summary, or deliberate removal. The logs are still audited.',
    },
    SESSION_SUMMARY_EMPTY: {
      severity: 'error',
      title: 'summary.json is empty',
      help: 'A zero-byte summary.json: a non-atomic writer (fork copy, subagent init) truncated it and died before writing, or a reader raced a plain write. Grok refuses to load the session ("InvalidData").',
    },
    SESSION_SUMMARY_UNPARSEABLE: {
      severity: 'error',
      title: 'summary.json is not valid JSON',
      help: 'summary.json cannot be parsed (truncated by a crash during a non-atomic write, invalid UTF-8, or foreign edits). Grok cannot load the session; its list and scan silently skip it.',
    },
    SESSION_FILE_UNPARSEABLE: {
      severity: 'warning',
      title: 'A JSON sidecar file is empty or not valid JSON',
      help: 'A JSON state file other than summary.json (plan.json, signals.json, a subagent meta.json, a compaction checkpoint, ...) is empty, truncated or not JSON. Grok treats most of these as absent with a warning; a missing compaction checkpoint makes rewind across that compaction impossible.',
    },
    SESSION_UNREADABLE: {
      severity: 'error',
      title: 'A file or directory in the session cannot be read',
      help: 'Permission denied, an I/O error, or an entry that is not a regular file or directory (a FIFO, socket or device, which is never opened so that the audit cannot hang). Its content is not audited and not hashed; the audit goes on with the rest.',
    },
    SESSION_UNEXPECTED_FILE: {
      severity: 'note',
      title: 'A file the agent does not write',
      help: 'The path is not one Grok Build writes in a session directory (or is written only by a third-party fork). It is hashed and inventoried but not interpreted. Someone or something else put it there.',
    },
    SESSION_SYMLINK: {
      severity: 'warning',
      title: 'A symbolic link in or as a session (an error when it stands in for evidence)',
      help: 'Grok never creates symlinks in its session tree, and its own scanners skip them. A symlink is recorded with its target and never followed, read or archived; one that stands in for a session artifact (or for a whole session directory) hides that evidence from the audit and is an error.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    const agent = ctx.format.displayName ?? 'Grok Build';
    // summary.json is Grok's commit marker; sessions of other agents are the files themselves.
    const grok = ctx.format.name === 'grok';
    return {
      doc({ file, kind, problem }) {
        if (!problem) return;
        if (kind === 'summary' && grok) {
          if (problem.kind === 'unreadable') return; // reported from the inventory at end()
          ctx.emit(problem.kind === 'empty' ? 'SESSION_SUMMARY_EMPTY' : 'SESSION_SUMMARY_UNPARSEABLE', { file, byteOffset: problem.byteOffset }, `${problem.detail}; Grok cannot load this session`);
          return;
        }
        if (problem.kind !== 'unreadable') ctx.emit('SESSION_FILE_UNPARSEABLE', { file, byteOffset: problem.byteOffset }, problem.detail);
      },
      end() {
        const found = session.found;
        if (found.unreachable !== undefined) {
          ctx.emit('SESSION_UNREADABLE', { file: '' }, `a directory in the tree could not be opened: ${found.unreachable}; its evidence is not audited`, { severity: 'error' });
          return;
        }
        if (found.symlinkTarget !== undefined) {
          const target = JSON.stringify(found.symlinkTarget || '(unreadable link)');
          if (found.members) ctx.emit('SESSION_SYMLINK', { file: found.members[0] ?? '' }, `the session file is a symlink to ${target}; not followed, so this session is not audited`, { severity: 'error' });
          else ctx.emit('SESSION_SYMLINK', { file: '' }, `the session directory is a symlink to ${target}; not followed (Grok skips symlinked sessions too), so this session is not audited`, { severity: 'error' });
          return;
        }
        const summary = session.inventory.find((e) => e.path === 'summary.json');
        if (!grok) {
          // no commit marker to look for
        } else if (!summary) ctx.emit('SESSION_SUMMARY_MISSING', { file: 'summary.json' }, 'no summary.json: Grok does not see this directory as a session and cannot resume it');
        else if (summary.type !== 'file') ctx.emit('SESSION_SUMMARY_MISSING', { file: 'summary.json' }, `summary.json is ${describeType(summary)}, not a regular file: Grok does not see this directory as a session`);

        const unexpectedDirs: string[] = [];
        for (const e of session.inventory) {
          if (unexpectedDirs.some((d) => e.path.startsWith(`${d}/`))) continue;
          const a = session.artifacts.get(e.path);
          if (e.type === 'symlink') {
            const known = a !== undefined && a.role !== 'unexpected';
            const where = e.linkTarget === undefined ? 'an unreadable target' : JSON.stringify(e.linkTarget);
            ctx.emit(
              'SESSION_SYMLINK',
              { file: e.path },
              known ? `${e.path} is a symlink to ${where} standing in for a session artifact: not followed, so that evidence is not audited` : `symlink to ${where}; not followed`,
              known ? { severity: 'error' } : undefined,
            );
            continue;
          }
          if (e.type === 'fifo' || e.type === 'socket' || e.type === 'block-device' || e.type === 'char-device' || e.type === 'unknown') {
            ctx.emit('SESSION_UNREADABLE', { file: e.path }, e.readError && e.type === 'unknown' ? (e.path.includes('\ufffd') ? 'its name is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by name: not audited' : `cannot stat (${e.readError})`) : `${describeType(e)}: never opened, not audited`);
            continue;
          }
          if (e.readError !== undefined) {
            const what = e.readError === 'EDEPTH' ? 'directory nested too deeply; not descended into' : e.type === 'dir' ? `directory cannot be listed (${e.readError})` : `cannot be read (${e.readError})`;
            ctx.emit('SESSION_UNREADABLE', { file: e.path }, what);
            continue;
          }
          if (a && (a.role === 'unexpected' || a.role === 'foreign')) {
            if (e.type === 'dir') {
              unexpectedDirs.push(e.path);
              const inside = session.inventory.filter((x) => x.path.startsWith(`${e.path}/`)).length;
              ctx.emit('SESSION_UNEXPECTED_FILE', { file: e.path }, `directory not written by ${agent} (${inside} entries inside); inventoried and hashed, not interpreted`);
            } else {
              ctx.emit('SESSION_UNEXPECTED_FILE', { file: e.path }, a.note ?? `file not written by ${agent}; inventoried and hashed, not interpreted`);
            }
          }
        }
      },
    };
  },
});
