/** SCHEMA_*: every JSON document and JSONL record checked against its JSON Schema (generated from the zod models). */
import { defineCheck } from './define.js';

export const schema = defineCheck({
  id: 'schema',
  validate: true,
  codes: {
    SCHEMA_VIOLATION: {
      severity: 'error',
      title: 'A record does not match the schema of its file',
      help:
        'The record is valid JSON but not of the shape the agent writes (a missing required field, a wrong type, an ' +
        'unknown enum value). The message gives the JSON Pointer and what was expected.',
    },
    SCHEMA_UNKNOWN_TYPE: {
      severity: 'note',
      title: 'A record carries a tag this tool does not know',
      help:
        "The record's type tag is not in the model: written by a newer (or foreign) build of the agent. Checks that " +
        'need the record ignore it.',
    },
    SCHEMA_NOT_PERSISTED: {
      severity: 'warning',
      title: 'A tag documented as never persisted is on disk',
      help:
        'The agent documents some records as transient: sent, never written to disk. Finding one on disk means a ' +
        'different build wrote the file, or someone else did.',
    },
    SCHEMA_DUPLICATE_KEY: {
      severity: 'warning',
      title: 'A record or document repeats a key in one object',
      help:
        'JSON leaves a repeated key undefined: JSON.parse keeps the last value, serde refuses a repeated ' +
        'struct field, other parsers keep the first. The same bytes then mean different things to different ' +
        "readers, which no agent's writer produces and which can hide a value from a reviewer's tool. An " +
        "error when the agent's own parser refuses the record (it never sees it, this audit does), else a " +
        'warning. The message names the key and the object (JSON Pointer).',
    },
    SCHEMA_LEGACY_RECORD: {
      severity: 'note',
      title: 'A legacy record format',
      help: "A record in an older format of the agent's: the session was written (in part) by an old binary.",
    },
  },
  create(ctx) {
    const { duplicateKeys } = ctx.agent;
    /** `whole`: the repeat is in the record's (or document's) own fields, read by the agent as a struct. */
    const duplicated = (
      at: { file: string; line?: number; byteOffset?: number; pointer: string },
      dup: { key: string; pointer: string },
      whole: boolean,
    ): void => {
      const rejected = whole && duplicateKeys.rejectsRecord;
      ctx.emit(
        'SCHEMA_DUPLICATE_KEY',
        at,
        `the key ${JSON.stringify(dup.key)} appears twice in ${
          dup.pointer === '' ? 'the top-level object' : `the ` + `object at ${dup.pointer}`
        }: ${duplicateKeys.text}` +
          (!whole && duplicateKeys.rejectsRecord
            ? ' (refused only if that object is a typed part of the record; free-form values such as tool ' +
              'arguments keep the last)'
            : ''),
        rejected ? { key: `${dup.pointer}/${dup.key}`, severity: 'error' } : { key: `${dup.pointer}/${dup.key}` },
      );
    };
    return {
      doc({ file, kind, value, duplicateKey }) {
        if (value === undefined) return;
        if (duplicateKey) duplicated({ file, pointer: duplicateKey.pointer }, duplicateKey, true);
        for (const issue of ctx.agent.validate(kind, value)) {
          ctx.emit(issue.code, { file, pointer: issue.pointer }, issue.message);
        }
      },
      record({ file, record, kind, offloaded }) {
        const dup = record.duplicateKey;
        if (dup) {
          const at = { file, line: record.line, byteOffset: record.byteOffset, pointer: dup.pointer };
          duplicated(at, dup, dup.pointer === '');
        }
        if (offloaded) return;
        for (const issue of ctx.agent.validate(kind, record.value)) {
          const at = { file, line: record.line, byteOffset: record.byteOffset, pointer: issue.pointer };
          ctx.emit(issue.code, at, issue.message);
        }
      },
      // Issues of a log checked in the second thread, in record order (the same order as above).
      fileEnd({ file, schemaIssues }) {
        for (const i of schemaIssues ?? []) {
          ctx.emit(i.code, { file, line: i.line, byteOffset: i.byteOffset, pointer: i.pointer }, i.message);
        }
      },
    };
  },
});
