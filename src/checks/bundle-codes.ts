/** BUNDLE_*: the codes `verify` reports about an evidence bag (and a live directory compared with it). */
import type { CodeInfo } from '../model/finding.js';

export const BUNDLE_CODES = {
  BUNDLE_MANIFEST_MISMATCH: {
    severity: 'error',
    title: 'A file does not match its checksum',
    help:
      "A payload or tag file's digest differs from the one in a manifest (or a manifest's digest differs from " +
      'the one in the custody statement): the bag was altered after it was made, or damaged in storage or transfer.',
  },
  BUNDLE_FILE_MISSING: {
    severity: 'error',
    title: 'A file listed in the bag is not there',
    help:
      'A manifest lists a file the bag does not hold (or bagit.txt itself is missing). With `verify ' +
      '--against`, a file of the capture that the live session no longer has (a warning: TTL cleanup deletes old ' +
      'files).',
  },
  BUNDLE_FILE_EXTRA: {
    severity: 'error',
    title: 'A payload file is not in every manifest',
    help:
      'Every file under data/ must be listed in every payload manifest (RFC 8493 §3): an unlisted file was ' +
      'added after bagging. Also: a tag file the custody statement does not pin (added after custody was ' +
      'recorded, so no signature covers it), and an unsigned custody.intoto.json beside the signed ' +
      'custody.dsse.json (never trusted).',
  },
  BUNDLE_UNSAFE_PATH: {
    severity: 'error',
    title: 'An archive member could escape an extraction directory',
    help:
      'Absolute paths, drive letters, `..` components, backslashes, symlink or hard-link members and duplicate ' +
      'names are rejected (zip-slip and its cousins). They are never resolved or extracted.',
  },
  BUNDLE_SIGNATURE_INVALID: {
    severity: 'error',
    title: 'The custody signature does not verify',
    help:
      'The DSSE envelope (custody.dsse.json) is malformed, is not signed by the given public key (--key), or ' +
      'its payload type is not in-toto; or a key was given and the bag is not signed.',
  },
  BUNDLE_INVALID: {
    severity: 'error',
    title: 'Not a conforming BagIt bag',
    help:
      'bagit.txt is malformed, there is no payload manifest, a manifest line is malformed or points outside ' +
      'data/, or Payload-Oxum does not match the payload (RFC 8493).',
  },
  BUNDLE_UNVERIFIED: {
    severity: 'warning',
    title: 'Something in the bag could not be verified',
    help:
      'A signature is present but no --key was given, or only weak (md5, sha1) or unknown checksum algorithms ' +
      'are used. The bag may be fine; this tool could not confirm it.',
  },
  BUNDLE_NOT_APPEND_ONLY: {
    severity: 'error',
    title: 'A log that only grows was rewritten',
    help:
      'With `verify --against <live session>`: a log the agent only ever appends to no longer starts with the bytes ' +
      'the earlier capture held: lines were edited or removed after the capture.',
  },
  BUNDLE_FILE_CHANGED: {
    severity: 'note',
    title: 'A file the agent rewrites changed since the capture',
    help:
      'With `verify --against`: the agent legitimately rewrites its state files (its identity document, a ' +
      'conversation it compacts or rewinds, plans); the message says what changed. New files since the capture are ' +
      'listed too.',
  },
} as const satisfies Record<string, CodeInfo>;

export type BundleCode = keyof typeof BUNDLE_CODES;
