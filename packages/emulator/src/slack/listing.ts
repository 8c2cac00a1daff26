import { SlackErrors } from './codes.js';
import type { SlackMessageStore, StoredSlackMessage } from './messages.js';
import type { SlackOutcome } from './streams.js';

/** A message as conversations.history and conversations.replies list it. */
function listed(m: StoredSlackMessage, withMetadata: boolean): Record<string, unknown> {
  return {
    type: 'message',
    ts: m.ts,
    text: m.text,
    ...(m.user ? { user: m.user } : { bot_id: 'B0BOT' }),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(withMetadata && m.metadata ? { metadata: m.metadata } : {}),
  };
}

/**
 * chat.postMessage's `metadata` (a JSON string or object with a string `event_type` and an object
 * `event_payload`, https://docs.slack.dev/messaging/message-metadata): undefined when absent,
 * `bad` when malformed (Slack answers `invalid_metadata_format`).
 */
export function parseMetadata(raw: unknown): StoredSlackMessage['metadata'] | 'bad' {
  if (raw === undefined || raw === '') return undefined;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return 'bad';
    }
  }
  const m = value as { event_type?: unknown; event_payload?: unknown } | null;
  if (!m || typeof m.event_type !== 'string' || typeof m.event_payload !== 'object' || m.event_payload === null || Array.isArray(m.event_payload)) return 'bad';
  return { event_type: m.event_type, event_payload: m.event_payload as Record<string, unknown> };
}

/** The paging arguments conversations.history and conversations.replies share. */
interface Page {
  /** Only messages after this ts (exclusive unless `inclusive`). */
  readonly oldest: number;
  readonly inclusive: boolean;
  /** At most this many messages (default 100, 1 to 999). */
  readonly limit: number;
  readonly withMetadata: boolean;
}

const flag = (value: unknown) => value === true || value === 'true';

function readPage(args: Record<string, unknown>): Page {
  return {
    oldest: Number(args.oldest ?? 0),
    inclusive: flag(args.inclusive),
    limit: Math.max(1, Math.min(999, Number(args.limit ?? 100) || 100)),
    withMetadata: flag(args.include_all_metadata),
  };
}

const inPage = (page: Page, m: StoredSlackMessage) => (page.inclusive ? Number(m.ts) >= page.oldest : Number(m.ts) > page.oldest);

/**
 * conversations.history: the messages of `args.channel` newest first, top-level ones and broadcast
 * thread replies; https://api.slack.com/methods/conversations.history
 */
export function channelHistory(store: SlackMessageStore, args: Record<string, unknown>): SlackOutcome {
  const page = readPage(args);
  const found = store
    .list()
    .filter((m) => m.channel === args.channel && m.state !== 'deleted' && (m.threadTs === undefined || m.broadcast))
    .filter((m) => inPage(page, m))
    .reverse();
  return { ok: true, fields: { messages: found.slice(0, page.limit).map((m) => listed(m, page.withMetadata)), has_more: found.length > page.limit } };
}

/**
 * conversations.replies: thread `args.ts` of `args.channel`, its parent first (whatever `oldest`
 * says), then its replies oldest first; https://docs.slack.dev/reference/methods/conversations.replies
 */
export function threadReplies(store: SlackMessageStore, args: Record<string, unknown>): SlackOutcome {
  const parent = typeof args.ts === 'string' ? store.get(args.ts) : undefined;
  if (!parent || parent.channel !== args.channel || parent.state === 'deleted') return { ok: false, error: SlackErrors.threadNotFound() };
  const page = readPage(args);
  const replies = store.list().filter((m) => m.threadTs === parent.ts && m.state !== 'deleted');
  const found = [parent, ...replies].filter((m) => m === parent || inPage(page, m));
  return { ok: true, fields: { messages: found.slice(0, page.limit).map((m) => listed(m, page.withMetadata)), has_more: found.length > page.limit } };
}
