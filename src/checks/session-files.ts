/** SESSION_*: the session directory as a whole — is it loadable, can every file be read, is every file expected. */
import type { InventoryEntry } from '../model/inventory.js';
import { MAX_JSON_DEPTH } from '../model/records.js';
import { defineCheck } from './define.js';

const describeType = (e: InventoryEntry): string =>
  e.type === 'fifo'
    ? 'a FIFO (named pipe)'
    : e.type === 'socket'
      ? 'a socket'
      : e.type.endsWith('device')
        ? `a ${e.type.replace('-', ' ')}`
        : `a ${e.type}`;

export const sessionFiles = defineCheck({
  id: 'session-files',
  validate: true,
  codes: {
    SESSION_SUMMARY_MISSING: {
      severity: 'error',
      title: 'The session has no identity document (the file that makes it a session)',
      help:
        'The document that makes a directory a session for its agent (its commit marker) is missing or is not a ' +
        'regular file: the agent does not list the session and cannot resume it. Causes: a crash between the first ' +
        'log append and the first write of the document, cleanup that deleted it, or deliberate removal. The logs ' +
        'are still audited.',
    },
    SESSION_SUMMARY_EMPTY: {
      severity: 'error',
      title: 'The identity document is empty',
      help:
        'A zero-byte identity document: a non-atomic writer truncated it and died before writing, or a reader ' +
        'raced a ' +
        'plain write. The agent refuses to load the session.',
    },
    SESSION_SUMMARY_UNPARSEABLE: {
      severity: 'error',
      title: 'The identity document is not valid JSON',
      help:
        'The identity document cannot be parsed (truncated by a crash during a non-atomic write, invalid UTF-8, or ' +
        `foreign edits), or nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, which this audit does ` +
        'not parse. The agent cannot load the session.',
    },
    SESSION_FILE_UNPARSEABLE: {
      severity: 'warning',
      title: 'A JSON sidecar file is empty or not valid JSON',
      help:
        'A JSON state file beside the logs (a plan, signals, sub-agent metadata, a compaction checkpoint, ...) is ' +
        `empty, truncated, not JSON, or nested more than ${MAX_JSON_DEPTH} levels deep (not parsed by this audit).`,
    },
    SESSION_UNREADABLE: {
      severity: 'error',
      title: 'A file or directory in the session cannot be read',
      help:
        'Permission denied, an I/O error, or an entry that is not a regular file or directory (a FIFO, socket or ' +
        'device, which is never opened so that the audit cannot hang). Its content is not audited and not hashed; ' +
        'the audit goes on with the rest. Also a directory of the tree that cannot be listed, and a .jsonl file no ' +
        "agent claimed because its first lines cannot be read (it may be an agent's log under another name).",
    },
    SESSION_NOT_SEARCHED: {
      severity: 'warning',
      title: 'A directory deeper than discovery searches',
      help:
        'Discovery searches a tree to a fixed depth (12 levels below each argument), so that a huge or looping tree ' +
        'cannot make it run forever. A directory at that depth that has subdirectories is reported here: sessions ' +
        'below it are not audited. Give it (or the directory that holds the sessions) as an argument.',
    },
    SESSION_UNEXPECTED_FILE: {
      severity: 'note',
      title: 'A file the agent does not write',
      help:
        'The path is not one the agent writes in a session (or is written only by a third-party fork of it). It is ' +
        'hashed and inventoried but not interpreted. Someone or something else put it there.',
    },
    SESSION_SYMLINK: {
      severity: 'warning',
      title: 'A symbolic link in or as a session (an error when it stands in for evidence)',
      help:
        'Agents do not create symlinks in their session trees. A symlink is recorded with its target and never ' +
        'followed, read or archived; one that stands in for a session artifact (or for a whole session) hides that ' +
        'evidence from the audit and is an error.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    const agent = ctx.agent.displayName;
    // The document that makes a directory a session, for agents that keep one (others' sessions are their logs).
    const marker = ctx.agent.sessionDocument;
    return {
      doc({ file, kind, problem }) {
        if (!problem) return;
        if (marker && kind === marker.kind) {
          if (problem.kind === 'unreadable') return; // reported from the inventory at end()
          const code = problem.kind === 'empty' ? 'SESSION_SUMMARY_EMPTY' : 'SESSION_SUMMARY_UNPARSEABLE';
          ctx.emit(code, { file, byteOffset: problem.byteOffset }, `${problem.detail}; ${marker.unloadable}`);
          return;
        }
        if (problem.kind !== 'unreadable')
          ctx.emit('SESSION_FILE_UNPARSEABLE', { file, byteOffset: problem.byteOffset }, problem.detail);
      },
      end() {
        const found = session.found;
        if (found.notSearched !== undefined) {
          ctx.emit('SESSION_NOT_SEARCHED', { file: '' }, found.notSearched);
          return;
        }
        if (found.unreachable !== undefined) {
          const message = found.members
            ? `a file in the tree could not be read: ${found.unreachable}; it is not audited`
            : `a directory in the tree could not be opened: ${found.unreachable}; whatever it holds (a session, a ` +
              'group of sessions) is not audited';
          ctx.emit('SESSION_UNREADABLE', { file: found.members?.[0] ?? '' }, message, { severity: 'error' });
          return;
        }
        if (found.symlinkTarget !== undefined) {
          const target = JSON.stringify(found.symlinkTarget || '(unreadable link)');
          if (found.members)
            ctx.emit(
              'SESSION_SYMLINK',
              { file: found.members[0] ?? '' },
              `the session file is a symlink to ${target}; not followed, so this session is not audited`,
              { severity: 'error' },
            );
          else {
            const own = ctx.agent.symlinkedSession === undefined ? '' : ` (${ctx.agent.symlinkedSession})`;
            const why =
              `the session directory is a symlink to ${target}; not followed${own}, so this session is ` +
              `not audited`;
            ctx.emit('SESSION_SYMLINK', { file: '' }, why, { severity: 'error' });
          }
          return;
        }
        if (marker) {
          const doc = session.inventory.find((e) => e.path === marker.path);
          const at = { file: marker.path };
          if (!doc) ctx.emit('SESSION_SUMMARY_MISSING', at, `no ${marker.path}: ${marker.missing}`);
          else if (doc.type !== 'file') {
            const what = `${marker.path} is ${describeType(doc)}, not a regular file: ${marker.notRegular}`;
            ctx.emit('SESSION_SUMMARY_MISSING', at, what);
          }
        }

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
              known
                ? `${e.path} is a symlink to ${where} standing in for a session artifact: not followed, so that ` +
                    `evidence is not audited`
                : `symlink to ${where}; not followed`,
              known ? { severity: 'error' } : undefined,
            );
            continue;
          }
          if (
            e.type === 'fifo' ||
            e.type === 'socket' ||
            e.type === 'block-device' ||
            e.type === 'char-device' ||
            e.type === 'unknown'
          ) {
            ctx.emit(
              'SESSION_UNREADABLE',
              { file: e.path },
              e.readError && e.type === 'unknown'
                ? `cannot stat (${e.readError})`
                : `${describeType(e)}: never opened, not audited`,
            );
            continue;
          }
          if (e.readError !== undefined) {
            const what =
              e.readError === 'EDEPTH'
                ? 'directory nested too deeply; not descended into'
                : e.type === 'dir'
                  ? `directory cannot be listed (${e.readError})`
                  : `cannot be read (${e.readError})`;
            ctx.emit('SESSION_UNREADABLE', { file: e.path }, what);
            continue;
          }
          if (e.rawPath !== undefined) {
            // No agent writes such a name: someone else put it there (or a name made to pass for another's).
            ctx.emit(
              'SESSION_UNEXPECTED_FILE',
              { file: e.path },
              `the name is not valid UTF-8 (each byte that is not is shown as \\xHH; its bytes, base64, are ` +
                `${e.rawPath}): no agent writes such a name; inventoried and hashed with its real bytes`,
              { severity: 'warning' },
            );
            if (e.type === 'dir') unexpectedDirs.push(e.path);
            continue;
          }
          if (a && (a.role === 'unexpected' || a.role === 'foreign')) {
            if (e.type === 'dir') {
              unexpectedDirs.push(e.path);
              const inside = session.inventory.filter((x) => x.path.startsWith(`${e.path}/`)).length;
              ctx.emit(
                'SESSION_UNEXPECTED_FILE',
                { file: e.path },
                `directory not written by ${agent} (${inside} entries inside); inventoried and hashed, not interpreted`,
              );
            } else {
              ctx.emit(
                'SESSION_UNEXPECTED_FILE',
                { file: e.path },
                a.note ?? `file not written by ${agent}; inventoried and hashed, not interpreted`,
              );
            }
          }
        }
      },
    };
  },
});
