/** XREF_ID_MISMATCH, XREF_CWD_MISMATCH, XREF_UPDATE_SESSION_ID: is the session where and who it says it is. */
import { decodeCwdDirname, encodeCwdDirname, isHashedDirname, looksLikeGroup } from '../paths.js';
import { summaryView, type SummaryView } from '../summary-view.js';
import { defineCheck } from '../../../checks/define.js';

export const xrefIdentity = defineCheck({
  id: 'xref-identity',
  validate: false,
  codes: {
    XREF_ID_MISMATCH: {
      severity: 'error',
      title: 'summary.json names a different session than its directory',
      help:
        'Grok places a session at `<cwd group>/<summary.info.id>/` and finds it by that name. A different id ' +
        'in summary.json means the directory was renamed or copied by hand, or the summary belongs to another ' +
        'session. (A relocation journal in the grok home can legitimately move a session; pass the grok home to ' +
        'audit with it.)',
    },
    XREF_CWD_MISMATCH: {
      severity: 'error',
      title: "The cwd group directory does not encode the session's cwd",
      help:
        'The group directory name must be encode_cwd_dirname(summary.info.cwd): the URL-encoded cwd, or for ' +
        'long paths `<slug>-<blake3 hash>` with a `.cwd` file holding the raw cwd. A mismatch means the session ' +
        'was moved between groups by hand, the cwd in summary.json was edited, or the `.cwd` file disagrees. Grok ' +
        'will not find it under its real cwd.',
    },
    XREF_UPDATE_SESSION_ID: {
      severity: 'error',
      title: "updates.jsonl lines carry another session's id",
      help:
        'Every params.sessionId in updates.jsonl must equal the session id (a fork copy rewrites them; only ' +
        "the `_meta.eventId` prefix keeps the source id). Lines with another id were appended by another session's " +
        'writer, or spliced in from another file.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    let summary: SummaryView | undefined;
    let cwdFile: string | undefined;
    const foreign = new Map<string, { count: number; line: number; byteOffset: number }>();
    return {
      doc({ kind, value }) {
        if (kind === 'summary') summary = summaryView(value);
        if (kind === 'group-cwd' && typeof value === 'string') cwdFile = value;
      },
      event(e) {
        if (e.sessionId === undefined || e.sessionId === session.id) return;
        const f = foreign.get(e.sessionId);
        if (f) f.count++;
        else foreign.set(e.sessionId, { count: 1, line: e.line, byteOffset: e.byteOffset });
      },
      end() {
        for (const [id, f] of foreign) {
          const hint =
            summary?.parentSessionId === id
              ? ` (the parent session${summary.sessionKind ? ` of this ${summary.sessionKind}` : ''}: a fork copy ` +
                `that did not rewrite them)`
              : '';
          ctx.emit(
            'XREF_UPDATE_SESSION_ID',
            { file: 'updates.jsonl', line: f.line, byteOffset: f.byteOffset },
            `${f.count} line(s) carry params.sessionId ${JSON.stringify(id)}${hint}, not this session's ` +
              `${JSON.stringify(session.id)} (first at line ${f.line})`,
            { key: id },
          );
        }
        if (!summary) return;
        if (summary.id !== undefined && summary.id !== session.id) {
          ctx.emit(
            'XREF_ID_MISMATCH',
            { file: 'summary.json', pointer: '/info/id' },
            `summary.json says info.id ${JSON.stringify(summary.id)} but the directory is named ` +
              `${JSON.stringify(session.id)}: Grok looks sessions up by directory name`,
          );
        }
        const group = session.found.groupName;
        const cwd = summary.cwd;
        if (group === undefined || cwd === undefined) return;
        // not inside a Grok cwd group (e.g. a session copied out for review): placement not checkable
        if (!looksLikeGroup(group, cwdFile !== undefined)) return;
        const expected = encodeCwdDirname(cwd);
        const groupCwd = decodeCwdDirname(group, cwdFile);
        if (group !== expected) {
          const whose =
            groupCwd === undefined
              ? ''
              : groupCwd === cwd
                ? ' (whose .cwd names the same cwd: the hash part of the name is wrong)'
                : ` (the group of ${JSON.stringify(groupCwd)})`;
          ctx.emit(
            'XREF_CWD_MISMATCH',
            { file: 'summary.json', pointer: '/info/cwd' },
            `info.cwd ${JSON.stringify(cwd)} belongs in group ${JSON.stringify(expected)}, but the session sits in ` +
              `${JSON.stringify(group)}${whose}`,
          );
          return;
        }
        if (isHashedDirname(group)) {
          if (cwdFile === undefined)
            ctx.emit(
              'XREF_CWD_MISMATCH',
              { file: '../.cwd' },
              `the hashed group ${JSON.stringify(group)} has no .cwd file: Grok cannot decode the group back to ` +
                `${JSON.stringify(cwd)}`,
            );
          else if (cwdFile.trim() !== cwd)
            ctx.emit(
              'XREF_CWD_MISMATCH',
              { file: '../.cwd' },
              `the group's .cwd says ${JSON.stringify(cwdFile.trim())} but summary.json says info.cwd ` +
                `${JSON.stringify(cwd)}`,
            );
        }
      },
    };
  },
});
