/** sandbox.toml files given with --sandbox-config: parsed with smol-toml, validated with zod, into a ProfileBook. */
import { parse } from 'smol-toml';
import { z } from 'zod';
import { ProfileBook } from './profiles.js';

const ProfileConfigSchema = z.looseObject({
  extends: z.string().optional(),
  restrict_network: z.boolean().optional(),
  read_only: z.array(z.string()).optional(),
  read_write: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
});

const SandboxTomlSchema = z.looseObject({ profiles: z.record(z.string(), ProfileConfigSchema).optional() });

/** Throws an Error with one line naming the file and the problem. */
export function loadProfileBook(files: ReadonlyArray<{ path: string; text: string }>): ProfileBook {
  const book = new ProfileBook();
  for (const { path, text } of files) {
    let doc: unknown;
    try {
      doc = parse(text);
    } catch (e) {
      throw new Error(`${path}: not valid TOML (${(e instanceof Error ? e.message : String(e)).split('\n')[0]})`);
    }
    const r = SandboxTomlSchema.safeParse(doc);
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new Error(`${path}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
    }
    book.add(path, r.data.profiles ?? {});
  }
  return book;
}
