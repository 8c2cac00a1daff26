import { splitPrefixForTests } from './prefix.js';
import { captures, jsonl, rawLines, walk } from './helpers.js';

/**
 * What a bundled trace must convert to, computed from the raw file without the converters: tool
 * call ids (keyed `run:id` for codex exec, whose item ids restart per run), ids whose result is in
 * the file, and the number of model calls with usage.
 */
export interface RawFacts {
  /** Tool calls that are tool lines: every call but the plan tool calls. */
  readonly toolIds: Set<string>;
  /** Plan tool calls (`TodoWrite`, `update_plan`, codex exec `todo_list` items): the card's plan, not tool lines. */
  readonly planIds: Set<string>;
  readonly resultIds: Set<string>;
  readonly usageCount: number;
  /** Calls that update the plan and are also a tool line (a Codex code-mode script: update_plan, then a command). */
  readonly planAndToolIds?: Set<string>;
}

const PLAN_TOOLS = new Set(['TodoWrite', 'update_plan', 'todowrite', 'write_todos']);

/** Moves the plan tool calls out of `toolIds` into their own set. */
function splitPlanCalls(facts: Omit<RawFacts, 'planIds'>, planIds: Set<string>): RawFacts {
  for (const id of planIds) facts.toolIds.delete(id);
  return { ...facts, planIds };
}

const isTokenNumber = (value: unknown): boolean => typeof value === 'number';

function claudeTranscript(path: string): RawFacts {
  const toolIds = new Set<string>();
  const resultIds = new Set<string>();
  const usageIds = new Set<string>();
  const planIds = new Set<string>();
  for (const record of jsonl(path)) {
    for (const object of walk(record)) {
      if (object.type === 'tool_use' && typeof object.id === 'string') toolIds.add(object.id);
      if (object.type === 'tool_use' && typeof object.id === 'string' && PLAN_TOOLS.has(object.name as string)) planIds.add(object.id);
      if (object.type === 'tool_result' && typeof object.tool_use_id === 'string') resultIds.add(object.tool_use_id);
      const usage = object.usage as Record<string, unknown> | undefined;
      if (typeof object.id === 'string' && object.id.startsWith('msg_') && usage && Object.values(usage).some(isTokenNumber)) usageIds.add(object.id);
    }
  }
  return splitPlanCalls({ toolIds, resultIds, usageCount: usageIds.size }, planIds);
}

function claudeStreamLog(path: string, errorLines: readonly number[]): RawFacts {
  const lines = rawLines(path);
  const text = lines.join('\n');
  const toolIds = captures(text, /"id":\s*"(toolu_\w+)"/g);
  const resultIds = captures(text, /"tool_use_id":\s*"(toolu_\w+)"/g);
  // A result inside a record that cannot be parsed is not a result.
  for (const line of errorLines) for (const id of captures(lines[line - 1]!, /"tool_use_id":\s*"(toolu_\w+)"/g)) resultIds.delete(id);
  // One usage per model message, plus what a `result` adds from its own totals (streamed messages under-report).
  const results = (text.match(/"modelUsage":/g) ?? []).length;
  const planIds = captures(text, /"id":\s*"(toolu_\w+)",\s*"name":\s*"TodoWrite"/g);
  return splitPlanCalls({ toolIds, resultIds, usageCount: captures(text, /"id":\s*"(msg_\w+)"/g).size + results }, planIds);
}

function codexRollout(path: string): RawFacts {
  const toolIds = new Set<string>();
  const resultIds = new Set<string>();
  let usageCount = 0;
  let last = '';
  const planIds = new Set<string>();
  const planAndToolIds = new Set<string>();
  for (const record of jsonl(path) as Array<{ type: string; payload: Record<string, any> }>) {
    const payload = record.payload;
    if (['function_call', 'custom_tool_call'].includes(payload.type)) toolIds.add(payload.call_id);
    if (payload.type === 'function_call' && PLAN_TOOLS.has(payload.name)) planIds.add(payload.call_id);
    // Code mode: a script that calls only update_plan (one that goes on to run a command is that command).
    const calls = payload.type === 'custom_tool_call' ? [...String(payload.input).matchAll(/\btools\.(\w+)\s*\(/g)].map((m) => m[1]) : [];
    if (calls.length > 0 && calls.every((name) => name === 'update_plan')) planIds.add(payload.call_id);
    else if (calls.includes('update_plan')) planAndToolIds.add(payload.call_id);
    if (['function_call_output', 'custom_tool_call_output'].includes(payload.type)) resultIds.add(payload.call_id);
    if (payload.type === 'token_count' && payload.info) {
      const total = payload.info.total_token_usage;
      const key = `${total.input_tokens}/${total.output_tokens}`;
      if (key !== last) usageCount++;
      last = key;
    }
  }
  return { ...splitPlanCalls({ toolIds, resultIds, usageCount }, planIds), planAndToolIds };
}

function codexExec(path: string): RawFacts {
  const toolIds = new Set<string>();
  const resultIds = new Set<string>();
  let run = 0;
  let usageCount = 0;
  const planIds = new Set<string>();
  for (const line of rawLines(path)) {
    const content = splitPrefixForTests(line);
    if (!content.startsWith('{')) continue;
    const event = JSON.parse(content) as { type: string; item?: { id: string; type: string } };
    if (event.type === 'turn.started') run++;
    if (event.type === 'turn.completed') usageCount++;
    const item = event.item;
    if (item?.type === 'todo_list') planIds.add(`${run}:${item.id}`);
    if (item && ['command_execution', 'file_change', 'mcp_tool_call', 'web_search'].includes(item.type)) {
      toolIds.add(`${run}:${item.id}`);
      if (event.type === 'item.completed') resultIds.add(`${run}:${item.id}`);
    }
  }
  return { toolIds, resultIds, usageCount, planIds };
}

function geminiChat(path: string): RawFacts {
  const toolIds = new Set<string>();
  const resultIds = new Set<string>();
  const usageIds = new Set<string>();
  for (const record of jsonl(path) as Array<Record<string, any>>) {
    if (record.type !== 'gemini') continue;
    if (record.tokens) usageIds.add(record.id);
    for (const call of record.toolCalls ?? []) {
      toolIds.add(call.id);
      if (['success', 'error', 'cancelled'].includes(call.status)) resultIds.add(call.id);
    }
  }
  return { toolIds, resultIds, usageCount: usageIds.size, planIds: new Set() };
}

/** The raw facts of a bundled trace, by its format. */
export function rawFacts(format: string, path: string, errorLines: readonly number[]): RawFacts {
  switch (format) {
    case 'claude-transcript':
      return claudeTranscript(path);
    case 'claude-stream-json':
      return claudeStreamLog(path, errorLines);
    case 'codex-rollout':
      return codexRollout(path);
    case 'codex-exec':
      return codexExec(path);
    default:
      return geminiChat(path);
  }
}

/** Main-chain `[Request interrupted by user…]` markers of a Claude transcript (each cancels a run). */
export function claudeInterruptions(path: string): number {
  let count = 0;
  for (const record of jsonl(path) as Array<Record<string, any>>) {
    if (record.type !== 'user' || record.isSidechain) continue;
    const content = record.message?.content;
    if (Array.isArray(content) && content.some((block: any) => block.type === 'text' && String(block.text).startsWith('[Request interrupted by user'))) count++;
  }
  return count;
}
