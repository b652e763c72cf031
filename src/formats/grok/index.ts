/** Grok Build, the primary format. */
import { dirname, join } from 'node:path';
import type { FormatModule } from '../types.js';
import { classify, detect } from './artifacts.js';
import { LOOKS_LIKE, loadGrok } from './load.js';
import { looksLikeUpdate, streamUpdatesLog } from './log-stream.js';
import { eventText } from './normalize.js';
import { encodeCwdDirname } from './paths.js';
import { validateGrok } from './validate.js';

export const grok: FormatModule = {
  name: 'grok',
  detect,
  classify,
  load: loadGrok,
  validate: validateGrok,
  streamLog(source, artifacts, limits, onEvent) {
    const log = [...artifacts.values()].find((a) => a.kind === 'updates');
    if (!log || source.entry(log.path)?.type !== 'file') return undefined;
    return streamUpdatesLog(source, log.path, limits, () => {}, onEvent, () => {});
  },
  eventText,
  jsonlShape: (kind) => (kind === 'updates' ? looksLikeUpdate : LOOKS_LIKE[kind]),
  childSessionDir(parent, parentCwd, childId, childCwd) {
    const cwd = childCwd ?? parentCwd;
    if (!parent.groupAbs || cwd === undefined || childId.includes('/') || childId === '..' || childId === '.') return undefined;
    return join(dirname(parent.groupAbs), encodeCwdDirname(cwd), childId);
  },
};
