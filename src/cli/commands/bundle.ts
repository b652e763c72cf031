/** `bundle <path..> -o <out>`: a BagIt 1.0 evidence bag (zip, tar, tar.gz or directory) with a custody statement. */
import type { Argv, CommandModule } from 'yargs';
import { escapeText } from '../../report/escape.js';
import type { Io } from '../io.js';
import { parseFormatHint, withFormatHint } from '../options.js';

type Args = {
  paths: string[];
  output: string;
  redact: boolean;
  'redact-pattern': string[];
  'sign-key'?: string;
  'key-id'?: string;
  'bagging-date'?: string;
  force: boolean;
  'format-hint'?: string;
};

export function bundleCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'bundle <paths..>',
    describe:
      'a tamper-evident BagIt evidence bag of sessions: payload byte for byte, manifests, audit report, timelines, ' +
      'custody statement',
    builder: (y: Argv) =>
      withFormatHint(y)
        .positional('paths', {
          type: 'string',
          array: true,
          demandOption: true,
          describe: 'session directories or files, cwd groups or sessions roots',
        })
        .option('output', {
          alias: 'o',
          type: 'string',
          demandOption: true,
          describe: 'the bag: FILE.zip, FILE.tar.gz / .tgz, FILE.tar, or a new directory',
        })
        .option('redact', {
          type: 'boolean',
          default: false,
          describe:
            'redact secrets inside the payload for sharing (digests of the originals go in the custody statement)',
        })
        .option('redact-pattern', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe: 'an extra regular expression to redact (repeatable; needs --redact)',
        })
        .option('sign-key', {
          type: 'string',
          describe: 'an Ed25519 private key (PEM): sign the custody statement as a DSSE envelope',
        })
        .option('key-id', { type: 'string', describe: 'the keyid recorded with the signature' })
        .option('bagging-date', {
          type: 'string',
          describe: 'Bagging-Date (YYYY-MM-DD; default: SOURCE_DATE_EPOCH, else the latest updated_at of the sessions)',
        })
        .option('force', {
          type: 'boolean',
          default: false,
          describe: 'replace an existing output bag',
        }) as unknown as Argv<Args>,
    handler: async (argv) => {
      const formatHint = parseFormatHint(argv['format-hint']);
      // Loaded on use: the bag writer is not part of every command's start-up.
      const { runBundle } = await import('../../engine/bundle.js');
      const r = await runBundle({
        paths: argv.paths,
        ...(formatHint !== undefined ? { formatHint } : {}),
        out: argv.output,
        redact: argv.redact,
        redactPatterns: argv['redact-pattern'],
        force: argv.force,
        ...(argv['sign-key'] !== undefined ? { signKey: argv['sign-key'] } : {}),
        ...(argv['key-id'] !== undefined ? { keyId: argv['key-id'] } : {}),
        ...(argv['bagging-date'] !== undefined ? { baggingDate: argv['bagging-date'] } : {}),
      });
      const lines = [
        `Bundled ${r.sessions} session${r.sessions === 1 ? '' : 's'}, ${r.files} payload ` +
          `file${r.files === 1 ? '' : 's'} (${r.bytes} bytes) into ${escapeText(r.out)} (${r.format}).`,
        `manifest-sha256.txt sha256: ${r.manifestSha256}`,
      ];
      if (r.redactions) {
        const total = Object.values(r.redactions).reduce((a, b) => a + b, 0);
        lines.push(
          `Redacted ${total} secret${total === 1 ? '' : 's'}${
            total
              ? `: ${Object.entries(r.redactions)
                  .map(([k, n]) => `${k} ${n}`)
                  .join(', ')}`
              : ''
          }.`,
        );
      }
      for (const n of r.notArchived) lines.push(`not archived: ${escapeText(n.bagPath)}: ${escapeText(n.reason)}`);
      io.stdout(`${lines.join('\n')}\n`);
    },
  };
}
