/** SCHEMA_*: every JSON document and JSONL record checked against its JSON Schema (generated from the zod models). */
import { defineCheck } from './define.js';

export const schema = defineCheck({
  id: 'schema',
  validate: true,
  codes: {
    SCHEMA_VIOLATION: {
      severity: 'error',
      title: 'A record does not match the schema of its file',
      help: 'The record is valid JSON but not of the shape the agent writes (a missing required field, a wrong type, an unknown enum value). The message gives the JSON Pointer and what was expected. For Grok, a JSONL line of the wrong shape is skipped on load; a summary.json of the wrong shape makes the session unloadable.',
    },
    SCHEMA_UNKNOWN_TYPE: {
      severity: 'note',
      title: 'A record carries a tag this tool does not know',
      help: 'The record\'s type tag is not in the model: written by a newer (or foreign) build. On the xAI rail Grok decodes it as Unknown and ignores it; an unknown chat item or ACP update is skipped by Grok on load. Checks that need the record ignore it.',
    },
    SCHEMA_NOT_PERSISTED: {
      severity: 'warning',
      title: 'A tag documented as never persisted is on disk',
      help: 'Grok documents some updates as transient (session_status, last_turn_summary, pending_interaction, interaction_resolved, tool_call_delta_chunk, subagent_progress). Finding one on disk means a different build wrote the file, or someone else did.',
    },
    SCHEMA_LEGACY_RECORD: {
      severity: 'note',
      title: 'A legacy record format',
      help: 'A format-0 chat line (OpenAI-style role/content) or an updates line without the {timestamp, method, params} envelope. Grok still reads both; the session was written (in part) by an old binary.',
    },
  },
  create(ctx) {
    return {
      doc({ file, kind, value }) {
        if (value === undefined) return;
        for (const issue of ctx.format.validate(kind, value)) ctx.emit(issue.code, { file, pointer: issue.pointer }, issue.message);
      },
      record({ file, kind, record, offloaded }) {
        if (offloaded) return;
        for (const issue of ctx.format.validate(kind, record.value)) {
          ctx.emit(issue.code, { file, line: record.line, byteOffset: record.byteOffset, pointer: issue.pointer }, issue.message);
        }
      },
      // Issues of a log checked in the second thread, in record order (the same order as above).
      fileEnd({ file, schemaIssues }) {
        for (const i of schemaIssues ?? []) ctx.emit(i.code, { file, line: i.line, byteOffset: i.byteOffset, pointer: i.pointer }, i.message);
      },
    };
  },
});
