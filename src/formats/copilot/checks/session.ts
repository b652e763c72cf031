/**
 * COPILOT_* checks of a session's files together (formats/copilot-cli.md §1.3 to §1.6, §8): the directory, the
 * log's session.start and workspace.yaml name one id; a directory without events.jsonl (opened, never prompted);
 * a legacy layout; one id in both the flat and the directory layout; a live or stale lock; a rewind snapshot whose
 * user message is gone from the log (the trace /rewind and /undo leave).
 */
import { defineCheck } from '../../../checks/define.js';
import { isObj, str } from '../../shared/events.js';
import { EVENTS, REWIND_INDEX, STORE_ID, WORKSPACE } from '../artifacts.js';
import { LAYOUT_KIND, WORKSPACE_KIND, type LayoutDoc, type WorkspaceDoc } from '../load.js';

export const copilotSession = defineCheck({
  id: 'copilot-session',
  validate: true,
  codes: {
    COPILOT_ID_MISMATCH: {
      severity: 'error',
      title: "A Copilot CLI session's directory, session.start and workspace.yaml name different ids",
      help:
        'The directory name, session.start.data.sessionId and the id of workspace.yaml are one UUID in every real ' +
        'session. A difference is a directory renamed or copied, or a fork made by hand: the CLI resumes by the ' +
        'directory name and would read this log under another id.',
    },
    COPILOT_NO_EVENTS: {
      severity: 'note',
      title: 'A Copilot CLI session directory holds no events.jsonl',
      help:
        'The CLI creates the directory and workspace.yaml when a session starts and writes nothing to events.jsonl ' +
        'before the first prompt: a session opened and never prompted (or the empty extra directory a resume ' +
        'creates, issue #3908). Nothing happened in it; if its workspace.yaml says it was used, the log was removed.',
    },
    COPILOT_LEGACY_LAYOUT: {
      severity: 'note',
      title: 'A Copilot CLI session in a legacy layout',
      help:
        'history-session-state/session_<id>_<ms>.json (CLI 0.0.34x and before, one JSON object rewritten whole) and ' +
        'a flat session-state/<id>.jsonl (0.0.342 to about 0.0.37x) are older layouts; the CLI migrates them when ' +
        'they are resumed. A legacy file records no permission, hook or shutdown events.',
    },
    COPILOT_BOTH_LAYOUTS: {
      severity: 'note',
      title: 'One Copilot CLI session id in both the flat and the directory layout',
      help:
        'session-state/<id>.jsonl and session-state/<id>/events.jsonl both exist: a migration (the CLI and other ' +
        'readers take the directory). Both are audited; the message says whether the directory log starts with ' +
        'the flat one.',
    },
    COPILOT_IN_USE: {
      severity: 'note',
      title: 'A Copilot CLI session holds an in-use lock',
      help:
        'inuse.<pid>.lock is created while a process has the session and removed on a clean exit: the session was ' +
        'live when copied, or its process died (stale locks are common after a crash, issue #2927). A live ' +
        'session may still be appended to; several locks mean several processes.',
    },
    COPILOT_REWIND_EVENT_MISSING: {
      severity: 'warning',
      title: 'A rewind snapshot names a user message the log no longer holds',
      help:
        'rewind-snapshots/index.json records a snapshot at each user message, by its event id. /rewind and /undo ' +
        'truncate events.jsonl at the chosen message and leave no line saying so (their event is ephemeral): a ' +
        'snapshot whose event is gone is that trace, or a damaged or edited log.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    const inventory = session.inventory;
    const has = (p: string) => inventory.some((e) => e.path === p && e.type === 'file');
    let ws: WorkspaceDoc | undefined;
    let layout: LayoutDoc | undefined;
    const snapshots: Array<{ id: string; i: number }> = [];
    const ids = new Set<string>();
    const wanted = new Set<string>();
    let startId: { id: string; line: number; byteOffset: number } | undefined;
    return {
      doc(d) {
        if (d.kind === WORKSPACE_KIND) ws = d.value as WorkspaceDoc | undefined;
        else if (d.kind === LAYOUT_KIND) layout = d.value as LayoutDoc;
        else if (d.kind === 'rewind-index' && isObj(d.value) && Array.isArray(d.value.snapshots))
          d.value.snapshots.forEach((s, i) => {
            if (isObj(s) && str(s.eventId) !== undefined) {
              snapshots.push({ id: str(s.eventId)!, i });
              wanted.add(str(s.eventId)!);
            }
          });
      },
      record({ kind, record }) {
        if (kind !== 'events' || !isObj(record.value)) return;
        const v = record.value;
        // Only the ids the snapshots name are kept (the docs come before the log).
        if (str(v.id) !== undefined && wanted.has(str(v.id)!)) ids.add(str(v.id)!);
        if (startId === undefined && v.type === 'session.start' && isObj(v.data) && str(v.data.sessionId))
          startId = { id: str(v.data.sessionId)!, line: record.line, byteOffset: record.byteOffset };
      },
      end() {
        if (session.id === STORE_ID && has('session-store.db')) return;
        const dirSession = has(WORKSPACE) || has(EVENTS) || inventory.some((e) => e.path === 'checkpoints');
        const logFile = inventory.find((e) => e.type === 'file' && session.artifacts.get(e.path)?.kind === 'events');
        if (dirSession && !has(EVENTS))
          ctx.emit(
            'COPILOT_NO_EVENTS',
            { file: WORKSPACE },
            'no events.jsonl: a session opened and never prompted (the CLI writes the log at the first prompt)',
          );
        const legacy = inventory.find((e) => session.artifacts.get(e.path)?.kind === 'legacy');
        if (legacy)
          ctx.emit('COPILOT_LEGACY_LAYOUT', { file: legacy.path }, 'a legacy history-session-state file (CLI 0.0.34x)');
        else if (logFile && logFile.path !== EVENTS)
          ctx.emit(
            'COPILOT_LEGACY_LAYOUT',
            { file: logFile.path },
            'a flat session-state/<id>.jsonl (CLI 0.0.342 to 0.0.37x)',
          );
        if (layout?.directoryLog !== undefined && logFile)
          ctx.emit(
            'COPILOT_BOTH_LAYOUTS',
            { file: logFile.path },
            `${session.id}/events.jsonl exists too, and it ${layout.directoryLog ? 'starts' : 'does not start'} ` +
              'with this file: the CLI reads the directory',
          );
        const locks = inventory.filter((e) => /^inuse\.\d+\.lock$/.test(e.path));
        if (locks.length)
          ctx.emit(
            'COPILOT_IN_USE',
            { file: locks[0]!.path },
            `${locks.map((l) => l.path).join(', ')}: the session was live when copied, or its process died ` +
              'without removing the lock',
          );
        const wsId = ws?.values.id;
        const dirName = session.found.id;
        if (startId && startId.id !== dirName && dirSession)
          ctx.emit(
            'COPILOT_ID_MISMATCH',
            { file: EVENTS, line: startId.line, byteOffset: startId.byteOffset, pointer: '/data/sessionId' },
            `session.start names session ${startId.id}, the directory is ${dirName}`,
          );
        if (wsId !== undefined && wsId !== dirName && dirSession)
          ctx.emit(
            'COPILOT_ID_MISMATCH',
            { file: WORKSPACE },
            `workspace.yaml names session ${wsId}, the directory is ${dirName}`,
          );
        if (has(EVENTS))
          for (const s of snapshots)
            if (!ids.has(s.id))
              ctx.emit(
                'COPILOT_REWIND_EVENT_MISSING',
                { file: REWIND_INDEX, pointer: `/snapshots/${s.i}/eventId` },
                `snapshot ${s.i} was taken at event ${s.id}, which events.jsonl does not hold: history was ` +
                  'rewound (/rewind, /undo), or the log lost lines',
                { key: s.id },
              );
      },
    };
  },
});
