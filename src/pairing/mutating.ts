/**
 * Whether a tool call can have changed files or run commands: by the tool kind the authoritative log gives it, else
 * by its name.
 */
const READ_ONLY_KINDS = new Set(['read', 'search', 'think', 'fetch', 'switch_mode']);
const MUTATING_KINDS = new Set(['edit', 'delete', 'move', 'execute']);
const READ_ONLY_NAMES =
  /^(read|view|cat|list|ls|glob|grep|search|find|fetch|web_?search|x_?search|think|todo_?read|get)/i;

/** Can the call have changed the world? Unknown tools are assumed to. */
export function isMutating(name: string | undefined, kind: string | undefined): boolean {
  if (kind !== undefined && MUTATING_KINDS.has(kind)) return true;
  if (kind !== undefined && READ_ONLY_KINDS.has(kind)) return false;
  return !(name !== undefined && READ_ONLY_NAMES.test(name));
}
