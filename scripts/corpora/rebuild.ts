/**
 * Grok's chat-history rebuild from updates.jsonl (storage/mod.rs `chat_rebuild`, U2), reimplemented to produce a
 * realistic rebuilt chat_history.jsonl: user parts from user chunks, one running assistant text, tool calls named
 * by their display title, results from completed/failed updates; thoughts and model ids dropped, rewind markers
 * ignored, everything before the last compaction checkpoint erased.
 */
type Obj = Record<string, unknown>;

export function rebuildChat(updatesJsonl: string): string {
  const out: unknown[] = [];
  let userParts: unknown[] = [];
  let agentText: string | undefined;
  let agentCalls: Array<{ id: string; name: string; arguments: string }> = [];
  const emitted = new Set<string>();
  const flushUser = (): void => {
    if (userParts.length) out.push({ type: 'user', content: userParts });
    userParts = [];
  };
  const flushAgent = (): void => {
    if (agentText !== undefined || agentCalls.length) {
      const item: Obj = { type: 'assistant', content: agentText ?? '' };
      if (agentCalls.length) item.tool_calls = agentCalls;
      out.push(item);
    }
    agentText = undefined;
    agentCalls = [];
  };
  for (const line of updatesJsonl.split('\n')) {
    if (!line.trim()) continue;
    let v: Obj;
    try {
      v = JSON.parse(line) as Obj;
    } catch {
      continue;
    }
    const xai = v.method === '_x.ai/session/update';
    const params = (v.params ?? v) as Obj;
    const u = params.update as Obj | undefined;
    if (!u) continue;
    const tag = u.sessionUpdate;
    if (xai) {
      if (tag === 'compaction_checkpoint') {
        out.length = 0;
        userParts = [];
        agentText = undefined;
        agentCalls = [];
        emitted.clear();
      }
      continue;
    }
    const content = u.content as Obj | undefined;
    if (tag === 'user_message_chunk') {
      if (agentText !== undefined || agentCalls.length) flushAgent();
      if (content?.type === 'text') userParts.push({ type: 'text', text: content.text });
    } else if (tag === 'agent_message_chunk') {
      flushUser();
      agentText = (agentText ?? '') + (content?.type === 'text' ? String(content.text) : '');
    } else if (tag === 'tool_call') {
      agentCalls.push({
        id: String(u.toolCallId),
        name: String(u.title),
        arguments: u.rawInput === undefined ? '' : JSON.stringify(u.rawInput),
      });
    } else if (
      tag === 'tool_call_update' &&
      (u.status === 'completed' || u.status === 'failed') &&
      !emitted.has(String(u.toolCallId))
    ) {
      flushAgent();
      const texts = Array.isArray(u.content)
        ? (u.content as Obj[])
            .filter((c) => c.type === 'content' && (c.content as Obj)?.type === 'text')
            .map((c) => String((c.content as Obj).text))
        : [];
      const text = texts.join('') || (u.rawOutput !== undefined ? JSON.stringify(u.rawOutput) : '');
      out.push({ type: 'tool_result', tool_call_id: String(u.toolCallId), content: text });
      emitted.add(String(u.toolCallId));
    }
  }
  flushUser();
  flushAgent();
  return out.map((i) => `${JSON.stringify(i)}\n`).join('');
}
