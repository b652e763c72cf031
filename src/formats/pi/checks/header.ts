/**
 * PI_HEADER_* and PI_VERSION_*: line 1 of a Pi session file is its header, and its `version` decides what Pi does
 * with the file when it opens it (formats/pi-hermes.md §1.6, §1.7): a file without a valid header is truncated to a
 * fresh one, a v1 or v2 file is migrated to v3 and rewritten in place. Either way the evidence is gone once Pi has
 * opened it: these findings say "bundle first".
 */
import { defineCheck } from '../../../checks/define.js';
import { isPiHeader } from '../artifacts.js';
import { versionOf } from '../tree.js';

const BUNDLE_FIRST = 'bundle first (session-audit bundle), then open only a copy in Pi';
export const PI_CURRENT_VERSION = 3;

export const piHeader = defineCheck({
  id: 'pi-header',
  validate: true,
  codes: {
    PI_HEADER_INVALID: {
      severity: 'error',
      title: 'Line 1 of a Pi session file is not a valid session header',
      help:
        'Pi reads a session only when line 1 parses as {"type":"session","id":…}. Otherwise its loader returns ' +
        'nothing, and opening the file (pi --session, /resume) truncates it and writes a fresh header: every entry ' +
        'is destroyed. Causes: a torn or edited first line, a file cut at the front. Bundle first.',
    },
    PI_HEADER_REPEATED: {
      severity: 'warning',
      title: 'A second session header inside a Pi session file',
      help:
        'A Pi file has one header, on line 1. Another `type:"session"` line later is what Pi before 0.55.2 wrote ' +
        'when a branched session flushed its in-memory prefix into a file that already had it (issue #1672), or ' +
        'two files spliced together. Pi keeps the line as an entry; its entries are not part of any branch.',
    },
    PI_VERSION_OLD: {
      severity: 'note',
      title: 'A Pi session file of an old version (v1 or v2): Pi rewrites it when it opens it',
      help:
        'Pi migrates a v1 or v2 file to v3 when it loads it and rewrites the whole file: v1 entries get fresh random ' +
        'ids (not reproducible), compaction indexes become ids, lines it cannot parse are dropped. The file is ' +
        'still what was recorded; opening it in Pi changes it. Bundle first.',
    },
    PI_VERSION_UNKNOWN: {
      severity: 'warning',
      title: 'A Pi session header names a version this audit does not know',
      help:
        'Known versions are 1 (no version field) to 3. A later version was written by a newer Pi: it is audited ' +
        'as v3, and its new fields are not checked.',
    },
  },
  create(ctx) {
    let first = true;
    return {
      fileEnd(f) {
        if (f.kind !== 'session' || !first || f.error !== undefined) return;
        first = false;
        ctx.emit(
          'PI_HEADER_INVALID',
          { file: f.file, line: 1, byteOffset: 0 },
          `${f.stats?.lines ? 'no line of the file parses' : 'the file is empty'}: Pi loads nothing from it, and ` +
            `opening it in Pi truncates it to a fresh header; ${BUNDLE_FIRST}`,
        );
      },
      record({ file, kind, record }) {
        if (kind !== 'session') return;
        const v = record.value;
        const where = { file, line: record.line, byteOffset: record.byteOffset };
        if (first) {
          first = false;
          if (record.line !== 1 || record.recovered !== undefined || !isPiHeader(v)) {
            const why =
              record.line !== 1 || record.recovered !== undefined
                ? 'line 1 does not parse'
                : 'line 1 is not {"type":"session","id":…}';
            ctx.emit(
              'PI_HEADER_INVALID',
              { file, line: 1, byteOffset: 0 },
              `${why}: Pi loads nothing from this file, and opening it in Pi truncates it to a fresh header, ` +
                `destroying every entry; ${BUNDLE_FIRST}`,
            );
            if (record.line === 1) return;
          } else {
            const version = versionOf(v)!;
            const raw = (v as { version?: unknown }).version;
            const absent = raw === undefined || raw === null ? ' (no version field)' : '';
            if (version < PI_CURRENT_VERSION)
              ctx.emit(
                'PI_VERSION_OLD',
                { ...where, pointer: '/version' },
                `a v${version} session file${absent}: opening it in Pi migrates ` +
                  `it to v${PI_CURRENT_VERSION} and rewrites it in place` +
                  `${version === 1 ? ' with fresh random entry ids' : ''}; ${BUNDLE_FIRST}`,
              );
            else if (version !== PI_CURRENT_VERSION || !Number.isInteger(version))
              ctx.emit(
                'PI_VERSION_UNKNOWN',
                { ...where, pointer: '/version' },
                `version ${JSON.stringify(raw)} is not one this audit knows (1 to ${PI_CURRENT_VERSION}): audited ` +
                  `as v${PI_CURRENT_VERSION}`,
              );
            return;
          }
        }
        if (typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'session')
          ctx.emit(
            'PI_HEADER_REPEATED',
            where,
            'a second session header: Pi before 0.55.2 wrote one when a branched session flushed its prefix into ' +
              'a file that already held it (#1672), or two files were spliced; Pi keeps it as an entry outside ' +
              'every branch',
          );
      },
    };
  },
});
