/** Grok Build, the primary format. */
import type { FormatModule } from '../types.js';
import { classify, detect } from './artifacts.js';
import { loadGrok } from './load.js';
import { validateGrok } from './validate.js';

export const grok: FormatModule = {
  name: 'grok',
  detect,
  classify,
  load: loadGrok,
  validate: validateGrok,
};
