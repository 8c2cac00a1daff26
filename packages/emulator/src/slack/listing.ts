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
  /** Where the page starts: the ts a previous page's `response_metadata.next_cursor` names; undefined for the first page. */
  readonly from: number | undefined;
}

/**
 * Slack's cursors are opaque; the ones it hands out are base64 of `next_ts:<ts without the dot>`
 * (https://api.slack.com/docs/pagination). The emulator hands out base64 of `next_ts:<ts>`.
 */
const cursorOf = (ts: string) => Buffer.from(`next_ts:${ts}`).toString('base64');

function cursorStart(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  const decoded = Buffer.from(raw, 'base64').toString('utf8');
  return decoded.startsWith('next_ts:') ? Number(decoded.slice('next_ts:'.length)) : undefined;
}

/** One page of `found` (in listing order) and, when more follow, the cursor of the next page (`response_metadata.next_cursor`). */
function paged(found: readonly StoredSlackMessage[], page: Page): Record<string, unknown> {
  const shown = found.slice(0, page.limit);
  const next = found[page.limit];
  return {
    messages: shown.map((m) => listed(m, page.withMetadata)),
    has_more: next !== undefined,
    ...(next ? { response_metadata: { next_cursor: cursorOf(next.ts) } } : {}),
  };
}

const flag = (value: unknown) => value === true || value === 'true';

function readPage(args: Record<string, unknown>): Page {
  return {
    oldest: Number(args.oldest ?? 0),
    inclusive: flag(args.inclusive),
    limit: Math.max(1, Math.min(999, Number(args.limit ?? 100) || 100)),
    withMetadata: flag(args.include_all_metadata),
    from: cursorStart(args.cursor),
  };
}

const inPage = (page: Page, m: StoredSlackMessage) => (page.inclusive ? Number(m.ts) >= page.oldest : Number(m.ts) > page.oldest);

/**
 * conversations.history: the messages of `args.channel` newest first, top-level ones and broadcast
 * thread replies; https://api.slack.com/methods/conversations.history. Paged by `cursor`: a page
 * with `has_more` names the next (older) page's `response_metadata.next_cursor`.
 */
export function channelHistory(store: SlackMessageStore, args: Record<string, unknown>): SlackOutcome {
  const page = readPage(args);
  const found = store
    .list()
    .filter((m) => m.channel === args.channel && m.state !== 'deleted' && (m.threadTs === undefined || m.broadcast))
    .filter((m) => inPage(page, m) && (page.from === undefined || Number(m.ts) <= page.from))
    .reverse();
  return { ok: true, fields: paged(found, page) };
}

/**
 * conversations.replies: thread `args.ts` of `args.channel`, its parent first (whatever `oldest`
 * says), then its replies oldest first; https://docs.slack.dev/reference/methods/conversations.replies.
 * Paged by `cursor` like {@link channelHistory} (later pages carry newer replies, without the parent).
 */
export function threadReplies(store: SlackMessageStore, args: Record<string, unknown>): SlackOutcome {
  const parent = typeof args.ts === 'string' ? store.get(args.ts) : undefined;
  if (!parent || parent.channel !== args.channel || parent.state === 'deleted') return { ok: false, error: SlackErrors.threadNotFound() };
  const page = readPage(args);
  const replies = store.list().filter((m) => m.threadTs === parent.ts && m.state !== 'deleted');
  const found = [parent, ...replies].filter((m) => (page.from === undefined ? m === parent || inPage(page, m) : m !== parent && inPage(page, m) && Number(m.ts) >= page.from));
  return { ok: true, fields: paged(found, page) };
}
