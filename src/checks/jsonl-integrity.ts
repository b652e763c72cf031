/** JSONL_*: the damage the tolerant reader found in every append-only log (DESIGN §4). */
import { MAX_JSON_DEPTH } from '../model/records.js';
import { defineCheck, type EmitOptions } from './define.js';

export const jsonlIntegrity = defineCheck({
  id: 'jsonl-integrity',
  validate: true,
  codes: {
    JSONL_TORN_TAIL: {
      severity: 'error',
      title: 'The last line is a record torn by a crash mid-append',
      help:
        'The file does not end with a newline and its last line does not parse: the writer died (kill, crash, disk ' +
        'full) in the middle of an append, and that record is lost. If the agent was still running when the evidence ' +
        'was captured, the line may simply have been in flight: capture again after it stops.',
    },
    JSONL_UNTERMINATED_TAIL: {
      severity: 'warning',
      title: 'The last line is complete but has no newline',
      help:
        'The final record parses but the newline after it was never written: the writer stopped between the record ' +
        'and its newline (or the file was captured mid-write). The record is intact and is used; the next append ' +
        'seals it.',
    },
    JSONL_BAD_LINE: {
      severity: 'error',
      title: 'A line in the middle of the file does not parse',
      help:
        'A line that is not valid JSON, followed by good lines: usually a torn record that a later append sealed ' +
        'with ' +
        'a newline, or a foreign write. The record on that line is lost.',
    },
    JSONL_MERGED_LINE: {
      severity: 'error',
      title: 'Two records glued on one line (a partial record with the next appended to it)',
      help:
        'A partial record with the next record appended straight onto it (a writer that appends without first ' +
        'ending a torn line, or two writers racing). This tool recovers every complete record in the line (their ' +
        'exact bytes parse) and reports the partial one as lost.',
    },
    JSONL_INVALID_UTF8: {
      severity: 'error',
      title: 'A line is not valid UTF-8',
      help:
        'Strict UTF-8 decoding fails inside the line (not just a tear at its end). Possible causes: a foreign tool ' +
        'rewrote the file in another encoding, or disk corruption.',
    },
    JSONL_NUL_BYTES: {
      severity: 'error',
      title: 'A zero-filled region inside the log',
      help:
        'A run of NUL bytes: blocks the filesystem allocated but that were never written before a crash (delayed ' +
        'allocation), or deliberate wiping. Any complete record around the zeros is recovered; fragments are lost.',
    },
    JSONL_BOM: {
      severity: 'warning',
      title: 'A line starts with a UTF-8 byte-order mark',
      help:
        'Agents do not write a byte-order mark: an editor or another tool rewrote the file. This tool strips it and ' +
        'reads the record.',
    },
    JSONL_CRLF: {
      severity: 'note',
      title: 'Lines end with CR LF',
      help:
        'Agents write LF only; CR LF endings mean the file was rewritten by another tool (an editor, a Windows ' +
        'checkout ' +
        'with autocrlf). JSON parsing is not affected; reported once per file with the count.',
    },
    JSONL_BLANK_LINE: {
      severity: 'note',
      title: 'An empty or whitespace-only line',
      help: 'A blank line is harmless but is evidence of a foreign edit or of an interrupted write of a lone newline.',
    },
    JSONL_DUPLICATE_LINE: {
      severity: 'warning',
      title: 'A line is byte-identical to the one before it',
      help:
        'Two identical adjacent records: a double write (a retried append) or two writers racing. Both are read; ' +
        'downstream counts and pairings see the duplicate.',
    },
    JSONL_OVERSIZED_LINE: {
      severity: 'error',
      title: 'A line is longer than the line-size cap',
      help:
        'The line exceeds the cap (64 MiB by default; --max-line-bytes). It is skipped to the next newline with ' +
        'bounded memory and not parsed.',
    },
    JSONL_TOO_DEEP: {
      severity: 'error',
      title: 'A line nests JSON deeper than the reader accepts',
      help:
        `Arrays and objects nested more than ${MAX_JSON_DEPTH} levels deep (the limit every reader of this tool ` +
        'keeps, README "Limits"): agents do not write such records; a foreign write or a crafted line does. The ' +
        'line is not parsed and its record is lost to this audit, as an unparseable line is, so that no check, ' +
        'summary or redaction meets a value deep enough to exhaust the stack.',
    },
  },
  create(ctx) {
    const { agent, session } = ctx;
    return {
      damage({ file, damage }) {
        // Damage inside the agent's own quarantine copy is the evidence of what the live file lost, not new damage.
        const quarantine = session.artifacts.get(file)?.role === 'quarantine';
        const opts: EmitOptions = {};
        if (damage.count !== undefined) opts.key = 'aggregate';
        if (quarantine) opts.severity = 'note';
        // What the agent's reader does with such a line (said once per line, and once for the CR LF count).
        const note =
          damage.count === undefined || damage.code === 'JSONL_CRLF' ? agent.damageNotes[damage.code] : undefined;
        const detail = note === undefined ? damage.detail : `${damage.detail}; ${note}`;
        const where = quarantine
          ? ` (in ${agent.shortName}'s quarantine copy: the evidence of a record the live file lost)`
          : '';
        const at = { file, line: damage.line, byteOffset: damage.byteOffset, byteLength: damage.byteLength };
        ctx.emit(damage.code, at, `${detail}${where}`, opts);
      },
    };
  },
});
