/**
 * The one check every agent's home gets, before the agent's own: a file its format names whose name is not valid
 * UTF-8. No agent writes such a name (each names its files by session id, a percent-encoded cwd or a fixed name),
 * so someone else put it there, or made a name to pass for an agent's. It is inventoried, hashed, bagged and archived
 * with its real bytes, and the agent's checks never interpret it (engine/home-audit.ts hides it from them).
 */
import { defineHomeCheck } from './define-home.js';

export const homeNames = defineHomeCheck({
  id: 'home-names',
  codes: {
    HOME_UNEXPECTED_NAME: {
      severity: 'warning',
      title: "A file in an agent's home has a name that is not valid UTF-8",
      help:
        "A file the agent's home is read for (a history, an index, a file version) has a name holding bytes that " +
        'are not valid UTF-8. No agent writes such a name, so it was put there by someone or something else, or ' +
        "made to pass for one of the agent's files. It is inventoried and hashed with its real bytes (the report " +
        "gives them, base64), bagged and archived as evidence, and not interpreted: the agent's checks do not read " +
        'it. Look at who wrote it; rename a copy to have it read.',
    },
  },
  run(ctx) {
    for (const e of ctx.source.inventory) {
      if (e.rawPath === undefined) continue;
      ctx.emit(
        'HOME_UNEXPECTED_NAME',
        { file: e.path },
        `the name is not valid UTF-8 (each byte that is not is shown as \\xHH; its bytes, base64, are ` +
          `${e.rawPath}): no agent writes such a name; inventoried and hashed with its real bytes, not interpreted`,
      );
    }
  },
});
