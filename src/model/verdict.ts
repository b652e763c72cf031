/**
 * What `verify` proved, in words and as data: a bag's or a store's verdict says whether it holds together, and
 * what that shows (unsigned: intact since it was made, never who made it; signed and checked: who signed it), and,
 * for `verify --against`, how the live session compares with the bag and whether the side that changed can be named.
 */
import { z } from 'zod';

const Counts = z.object({ errors: z.number().int(), warnings: z.number().int() });

export const SignatureSchema = z
  .object({
    present: z.boolean().describe('The bag (or a store record) carries a DSSE signature.'),
    verified: z.boolean().describe('A signature verified with the public key given (--key).'),
    keyId: z.string().optional().describe('The key id of the signature that verified, as the signer named it.'),
    fingerprint: z
      .string()
      .optional()
      .describe(
        'sha256:<hex> of the public key given (its DER SubjectPublicKeyInfo: ' +
          '`openssl pkey -pubin -in key.pub.pem -outform DER | sha256sum`).',
      ),
  })
  .describe('The signature of the custody statement (or of the store records) and what was checked of it.');

export const LiveVerdictSchema = Counts.extend({
  status: z
    .enum(['consistent', 'differs'])
    .describe('consistent: every captured file is unchanged or only appended to; differs: at least one error.'),
  changed: z
    .enum(['live', 'unknown'])
    .optional()
    .describe(
      'When they differ, which side changed: live only when the bag is signed and its signature verified (an ' +
        'unsigned bag can be remade by anyone, so the difference may be on either side).',
    ),
  places: z.array(z.string()).describe('Where they differ: the live file and line of each error.'),
  text: z.string().describe('The verdict on the live session, in words.'),
});

export const StoreRecordedSchema = z.object({
  records: z.number().int(),
  signed: z.number().int().describe('How many capture records are signed.'),
  rewrites: z
    .array(
      z.object({ seq: z.number().int(), session: z.string(), file: z.string(), line: z.number().int().optional() }),
    )
    .describe('Every capture that recorded a rewrite of an append-only log (BUNDLE_NOT_APPEND_ONLY).'),
  deletions: z
    .array(z.object({ seq: z.number().int(), session: z.string() }))
    .describe('Every capture that recorded a session deleted.'),
  gaps: z
    .array(
      z.object({
        seq: z.number().int(),
        lost: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
        by: z.string(),
        reason: z.string(),
      }),
    )
    .describe('Every gap acknowledged in the chain (archive --acknowledge-gap).'),
});

export const ProvenanceVerdictSchema = z
  .object({
    store: z.string(),
    capture: z.number().int(),
    run: z.string(),
    status: z.string(),
    recordSha256: z.string(),
    recordSigned: z.boolean(),
    chainHead: z.object({ seq: z.number().int(), sha256: z.string() }),
    findings: z
      .array(z.object({ seq: z.number().int(), code: z.string(), file: z.string(), line: z.number().int().optional() }))
      .describe("The store's findings on the session when the bag was made, from any of its captures."),
  })
  .describe(
    'Where the custody statement says the bag came from (bundle --from-store): as trustworthy as the bag, so its ' +
      "signer's word when proven is signed, anyone's otherwise.",
  );

export const VerdictSchema = Counts.extend({
  subject: z.enum(['bag', 'store']),
  status: z
    .enum(['consistent', 'invalid'])
    .describe('consistent: no error (warnings may remain); invalid: at least one error.'),
  proven: z
    .enum(['nothing', 'intact', 'signed'])
    .describe(
      'nothing: invalid; intact: consistent since it was made, not who made it (unsigned, or the signature not ' +
        'checked); signed: consistent and its signature verified with the key given.',
    ),
  signature: SignatureSchema,
  text: z.string().describe('The verdict in words, as the table prints it.'),
  live: LiveVerdictSchema.optional().describe('verify --against: the live session held against the bag.'),
  provenance: ProvenanceVerdictSchema.optional(),
  store: StoreRecordedSchema.optional().describe('verify --store: what the chain recorded.'),
}).describe('What verify proved.');

export type Verdict = z.infer<typeof VerdictSchema>;
export type LiveVerdict = z.infer<typeof LiveVerdictSchema>;
export type SignatureVerdict = z.infer<typeof SignatureSchema>;
export type StoreRecorded = z.infer<typeof StoreRecordedSchema>;
export type ProvenanceVerdict = z.infer<typeof ProvenanceVerdictSchema>;
