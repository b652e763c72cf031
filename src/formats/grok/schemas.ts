/**
 * The Grok Build artifact kinds that have a schema: the zod model (source of truth) and the JSON Schema file
 * generated from it into schemas/ (scripts/gen-schemas.ts). The runtime validates against the files.
 */
import type { SchemaEntry } from '../types.js';
import { Summary } from './models/summary.js';
import { ChatLine } from './models/chat.js';
import { UpdatesLine } from './models/updates.js';
import { RewindPoint } from './models/rewind.js';
import { CompactionCheckpointFile, CompactionRequestFile, RecapRequestFile } from './models/compaction.js';
import {
  AnnouncementState,
  GoalOrchestration,
  PlanModeSnapshot,
  SessionSignals,
  TodoState,
  WorkflowRunManifest,
} from './models/state.js';
import { BtwEntry, EventsLine, FeedbackLine } from './models/logs.js';
import { SubagentMeta, SubagentOutput } from './models/subagent.js';
import { RelocationJournal } from './models/relocation.js';

export const GROK_SCHEMAS: Record<string, SchemaEntry> = {
  summary: { file: 'grok/summary.schema.json', schema: Summary },
  updates: { file: 'grok/updates-line.schema.json', schema: UpdatesLine },
  chat: { file: 'grok/chat-line.schema.json', schema: ChatLine },
  rewind: { file: 'grok/rewind-point.schema.json', schema: RewindPoint },
  feedback: { file: 'grok/feedback-line.schema.json', schema: FeedbackLine },
  btw: { file: 'grok/btw-entry.schema.json', schema: BtwEntry },
  events: { file: 'grok/events-line.schema.json', schema: EventsLine },
  plan: { file: 'grok/plan.schema.json', schema: TodoState },
  'plan-mode': { file: 'grok/plan-mode.schema.json', schema: PlanModeSnapshot },
  signals: { file: 'grok/signals.schema.json', schema: SessionSignals },
  announcement: { file: 'grok/announcement-state.schema.json', schema: AnnouncementState },
  goal: { file: 'grok/goal-state.schema.json', schema: GoalOrchestration },
  'workflow-state': { file: 'grok/workflow-state.schema.json', schema: WorkflowRunManifest },
  checkpoint: { file: 'grok/compaction-checkpoint.schema.json', schema: CompactionCheckpointFile },
  'compaction-request': { file: 'grok/compaction-request.schema.json', schema: CompactionRequestFile },
  'recap-request': { file: 'grok/recap-request.schema.json', schema: RecapRequestFile },
  'subagent-meta': { file: 'grok/subagent-meta.schema.json', schema: SubagentMeta },
  'subagent-output': { file: 'grok/subagent-output.schema.json', schema: SubagentOutput },
  relocation: { file: 'grok/relocation-journal.schema.json', schema: RelocationJournal },
};
