import type { StoredSlackMessage } from './messages.js';

/** A message as conversations.history and conversations.replies list it. */
export function listed(m: StoredSlackMessage, withMetadata: boolean): Record<string, unknown> {
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
