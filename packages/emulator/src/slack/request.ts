import type { Context } from 'hono';
import { blockProblem } from './blocks.js';
import { SlackErrors, type SlackError } from './codes.js';
import type { SlackLimits } from './limits.js';

/** A Web API call's arguments: a form (what `@slack/web-api` sends) or a JSON body. */
export async function readArgs(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    const body: unknown = await c.req.json().catch(() => ({}));
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  }
  const form = await c.req.parseBody();
  return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, typeof v === 'string' ? v : String(v)]));
}

/** An array argument (`blocks`, `chunks`), given as an array or as a JSON string (the SDK form-encodes it): undefined when absent, `bad` when it is no array. */
export function parseJsonArray(value: unknown): unknown[] | undefined | 'bad' {
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return 'bad';
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : 'bad';
  } catch {
    return 'bad';
  }
}

/**
 * The `text` and `blocks` of chat.postMessage / chat.update, or the error Slack answers for them
 * (https://api.slack.com/methods/chat.postMessage#errors).
 */
export function messageContent(args: Record<string, unknown>, limits: SlackLimits): { error?: SlackError; text: string; blocks?: unknown[] } {
  const text = typeof args.text === 'string' ? args.text : '';
  const blocks = parseJsonArray(args.blocks);
  if (blocks === 'bad') return { error: SlackErrors.invalidBlocksFormat(), text };
  if (!text && !blocks?.length) return { error: SlackErrors.noText(), text };
  if ([...text].length > limits.maxTextChars) return { error: SlackErrors.msgTooLong(), text };
  if (blocks && blockProblem(blocks, limits)) return { error: SlackErrors.invalidBlocks(), text };
  return { text, blocks };
}
