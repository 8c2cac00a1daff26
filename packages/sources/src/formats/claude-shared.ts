import type { ImageInput } from '@progresscard/core';
import type { RunBuilder, UsageFields } from '../run-builder.js';
import { argsText, isObject, num, str, summarize, titleFrom, type Json } from '../text.js';

/** Tool names whose calls run a subagent; subagent tool calls are shown under them. */
const SUBAGENT_TOOLS = ['Task', 'Agent'] as const;

/** Separator between a subagent's parent tool and its own tool in a tool name: `Task › Bash`. */
export const SUBAGENT_SEPARATOR = ' › ';

/** Where a Claude message comes from: the main agent, or a subagent run by a Task call. */
export type ClaudeOrigin = { readonly kind: 'main' } | { readonly kind: 'subagent'; readonly parentId?: string };

/** The main agent. */
export const MAIN: ClaudeOrigin = { kind: 'main' };

interface HeldUsage {
  fields: UsageFields;
  readonly main: boolean;
}

/** Text of a `tool_result` block's content (a string or an array of text / image blocks). */
export function resultText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (isObject(block) && block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

/**
 * Image blocks of a `tool_result` (`{ type: 'image', source: { type: 'base64', media_type, data } }`,
 * e.g. a screenshot tool's), as the card's tool result images.
 */
function resultImages(content: unknown): ImageInput[] {
  if (!Array.isArray(content)) return [];
  const images: ImageInput[] = [];
  for (const block of content) {
    if (!isObject(block) || block.type !== 'image' || !isObject(block.source)) continue;
    const { source } = block;
    const mediaType = str(source.media_type);
    const data = str(source.data);
    if (source.type === 'base64' && data && mediaType && /^image\/[\w.+-]+$/.test(mediaType)) images.push({ data, mediaType });
  }
  return images;
}

/** Claude usage as token fields: input counts cache reads and writes too; context = input + output. */
function usageFields(usage: unknown): UsageFields | undefined {
  if (!isObject(usage)) return undefined;
  const parts = [num(usage.input_tokens), num(usage.cache_creation_input_tokens), num(usage.cache_read_input_tokens)];
  const output = num(usage.output_tokens);
  if (parts.every((part) => part === undefined) && output === undefined) return undefined;
  const input = parts.reduce<number>((sum, part) => sum + (part ?? 0), 0);
  return { inputTokens: input, outputTokens: output ?? 0, contextTokens: input + (output ?? 0) };
}

/** What a question-asking tool asks, for `interaction.requested`. */
function interactionPrompt(name: string, input: unknown): string | undefined {
  if (name === 'ExitPlanMode') return 'Approve the plan?';
  if (name !== 'AskUserQuestion' || !isObject(input)) return undefined;
  const questions = Array.isArray(input.questions) ? input.questions : [];
  const first = questions.find(isObject);
  return str(first?.question) ?? str(input.question) ?? 'The agent asks a question';
}

/**
 * The content blocks of Claude messages (transcripts and `stream-json` share them): text, thinking,
 * `tool_use`, `tool_result`, and usage.
 *
 * Usage is repeated on every content block of one message (with output tokens still growing), so
 * it is held per message id, merged (largest value per field), and sent once: when the main agent
 * starts its next message, or when the run ends. A subagent's usage adds input/output tokens but
 * no context size (its context is not the main one).
 *
 * Subagents (`isSidechain` transcript lines, `agent_progress` records, `parent_tool_use_id`
 * stream events) show as tool activity of their parent Task call: their tool calls become tool
 * lines named `Task › Bash`; their text and thinking are not part of the answer.
 */
export class ClaudeBlocks {
  private mainId: string | undefined;
  private readonly held = new Map<string, HeldUsage>();
  private readonly sent = new Set<string>();
  private sentInput = 0;
  private sentOutput = 0;

  /** Input and output tokens sent so far in this run (main agent and subagents). */
  get sentTotals(): { readonly inputTokens: number; readonly outputTokens: number } {
    return { inputTokens: this.sentInput, outputTokens: this.sentOutput };
  }

  constructor(private readonly b: RunBuilder) {
    b.beforeEnd = () => {
      this.flushAll();
      this.sent.clear();
      this.sentInput = 0;
      this.sentOutput = 0;
      this.mainId = undefined;
    };
  }

  /** One assistant record's `message` (one or more content blocks of one model message). */
  assistant(message: unknown, origin: ClaudeOrigin): void {
    if (!isObject(message)) return;
    const id = str(message.id);
    const content = Array.isArray(message.content) ? message.content : [];
    if (origin.kind === 'main') {
      const model = str(message.model);
      if (model && model !== '<synthetic>') this.b.setModel(model);
      if (id !== this.mainId) {
        // The main agent moved on: the previous message and any subagent messages are complete.
        this.flushAll();
        this.mainId = id;
      }
      this.b.modelOutput(id ?? `line ${this.b.line}`);
    } else if (!this.b.runActive) {
      return;
    }
    this.hold(id, message.usage, origin.kind === 'main', str(message.model));
    if (origin.kind === 'subagent') this.flushSubagentsExcept(id);
    // Claude Code writes a failed model call as a `<synthetic>` message ("API Error: 500 …"): the
    // error, not the model's answer (the result or a retry reports it).
    const synthetic = str(message.model) === '<synthetic>';
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_use') this.toolUse(block, origin);
      else if (origin.kind === 'subagent' || synthetic) continue;
      else if (block.type === 'text' && typeof block.text === 'string') this.b.answer(block.text, id ?? `line ${this.b.line}`);
      else if (block.type === 'thinking' && typeof block.thinking === 'string') this.b.thinking(block.thinking);
    }
  }

  /**
   * One user record's content: tool results finish their calls; `[Request interrupted by user…]`
   * cancels the run. Returns the prompt text when the record is a typed prompt (no tool results).
   */
  user(content: unknown): string | undefined {
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    const texts: string[] = [];
    let results = 0;
    for (const block of blocks) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_result') {
        results++;
        const callId = str(block.tool_use_id);
        if (!callId) this.b.error('tool_result block without a tool_use_id');
        else this.b.toolFinished(callId, { summary: summarize(resultText(block.content)), isError: block.is_error === true, images: resultImages(block.content) });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        if (block.text.startsWith('[Request interrupted by user')) this.b.cancel('interrupted by user');
        else texts.push(block.text);
      }
    }
    if (results > 0) this.b.inputArrived();
    return results === 0 && texts.length > 0 ? texts.join('\n') : undefined;
  }

  private toolUse(block: Json, origin: ClaudeOrigin): void {
    const callId = str(block.id);
    const name = str(block.name);
    if (!callId || !name) {
      this.b.error(`tool_use block without ${callId ? 'a name' : 'an id'}`);
      return;
    }
    let shown = name;
    let parentCallId: string | undefined;
    if (origin.kind === 'subagent') {
      parentCallId = origin.parentId && this.b.openToolName(origin.parentId) ? origin.parentId : this.b.lastOpenToolId(SUBAGENT_TOOLS);
      const parent = (parentCallId ? this.b.openToolName(parentCallId) : undefined) ?? 'subagent';
      shown = `${parent}${SUBAGENT_SEPARATOR}${name}`;
    }
    this.b.toolStarted(callId, shown, argsText(block.input ?? {}), parentCallId);
    const ask = origin.kind === 'main' ? interactionPrompt(name, block.input) : undefined;
    if (ask) this.b.interaction(ask, callId);
  }

  private hold(id: string | undefined, usage: unknown, main: boolean, model: string | undefined): void {
    const fields = usageFields(usage);
    if (!id || !fields || this.sent.has(id)) return;
    // A synthetic message (an API error written by Claude Code itself) reports zeros, not a model call.
    if (model === '<synthetic>' || (fields.inputTokens === 0 && fields.outputTokens === 0)) return;
    if (!main) {
      delete fields.contextTokens;
    }
    if (model && model !== '<synthetic>') fields.model = model;
    const held = this.held.get(id);
    if (!held) {
      this.held.set(id, { fields, main });
      return;
    }
    for (const key of ['inputTokens', 'outputTokens', 'contextTokens'] as const) {
      const value = fields[key];
      if (value !== undefined) held.fields[key] = Math.max(held.fields[key] ?? 0, value);
    }
  }

  /** Sends all usage held back so far. */
  flushAll(): void {
    for (const key of [...this.held.keys()]) this.flush(key);
  }

  private flushSubagentsExcept(id: string | undefined): void {
    for (const [key, held] of [...this.held]) if (!held.main && key !== id) this.flush(key);
  }

  private flush(id: string): void {
    const held = this.held.get(id);
    if (!held) return;
    this.held.delete(id);
    this.sent.add(id);
    this.sentInput += held.fields.inputTokens ?? 0;
    this.sentOutput += held.fields.outputTokens ?? 0;
    this.b.usage(held.fields);
  }
}

/**
 * The title of a typed Claude prompt, or how to treat it: `local` for a local command's output
 * (the command never reached the model), `skip` for meta text. Slash commands are `command`.
 */
export function classifyPrompt(text: string): { kind: 'prompt' | 'command'; title: string | undefined } | { kind: 'local' | 'skip' } {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'skip' };
  if (/^<local-command-(stdout|stderr)>/.test(trimmed)) return { kind: 'local' };
  if (trimmed.startsWith('<local-command-caveat>') || trimmed.startsWith('Caveat: The messages below were generated')) return { kind: 'skip' };
  if (/<command-name>/.test(trimmed)) return { kind: 'command', title: titleFrom(trimmed) };
  return { kind: 'prompt', title: titleFrom(trimmed) };
}
