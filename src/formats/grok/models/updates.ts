/**
 * `updates.jsonl` lines — `SessionUpdateEnvelope {timestamp (seconds, default 0), method, params}`
 * (storage/mod.rs:579-675).
 * `method == "_x.ai/session/update"` selects the xAI rail; any other method is read as ACP; a line without an
 * envelope is a legacy bare ACP notification `{sessionId, update}`.
 */
import { z } from 'zod';
import { named, obj, uint } from '../../shared/zod.js';
import { AcpNotification } from './acp.js';
import { XaiNotification } from './xai.js';

export const ACP_METHOD = 'session/update';
export const XAI_METHOD = '_x.ai/session/update';

/** What a line must look like to be read as an envelope at all (before its rail's payload is checked). */
export const Envelope = named(
  'UpdatesEnvelope',
  obj({ timestamp: uint.optional(), method: z.string(), params: obj({}) }),
);

export const XaiEnvelope = named(
  'UpdatesXaiEnvelope',
  obj({ timestamp: uint.optional(), method: z.literal(XAI_METHOD), params: XaiNotification }),
);
export const AcpEnvelope = named(
  'UpdatesAcpEnvelope',
  obj({ timestamp: uint.optional(), method: z.string(), params: AcpNotification }),
);

export const UpdatesLine = named(
  'UpdatesLine',
  z.union([XaiEnvelope, AcpEnvelope, AcpNotification]),
  'One line of Grok Build updates.jsonl: an xAI or ACP envelope, or a legacy bare ACP notification.',
);
