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
    SCHEMA_LEGACY_RECORD: {
      severity: 'note',
      title: 'A legacy record format',
      help: "A record in an older format of the agent's: the session was written (in part) by an old binary.",
    },
  },
  create(ctx) {
    return {
      doc({ file, kind, value }) {
        if (value === undefined) return;
        for (const issue of ctx.agent.validate(kind, value)) {
          ctx.emit(issue.code, { file, pointer: issue.pointer }, issue.message);
        }
      },
      record({ file, kind, record, offloaded }) {
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
