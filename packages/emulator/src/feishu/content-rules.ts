import { checkCardContent, utf8Bytes, type CardLimits } from './card-rules.js';
import { FeishuErrors, type FeishuError } from './codes.js';

/** Message types the create/reply routes accept (message/create doc). */
export const MSG_TYPES = ['text', 'post', 'image', 'file', 'audio', 'media', 'sticker', 'interactive', 'share_chat', 'share_user', 'system'] as const;

/** Accepted content, with what the store keeps. */
export interface CheckedContent {
  readonly card?: Record<string, unknown>;
  readonly shared: boolean;
  readonly mentions: readonly string[];
}

const TEXT_MENTION = /<at\s+(?:user_id|id|open_id|email)\s*=\s*['"]?([^'"\s>]+)/gi;

/**
 * Checks `content` for `msgType`: cards via {@link checkCardContent}; text ≤ 150 KB and `{"text": string}`;
 * post ≤ 30 KB; every content must be a JSON string (230001 otherwise).
 */
export function checkContent(msgType: string, content: string, limits: CardLimits): { value: CheckedContent } | { error: FeishuError } {
  if (msgType === 'interactive') {
    const checked = checkCardContent(content, limits);
    if (!checked.ok) return { error: checked.error };
    return { value: { card: checked.value.card, shared: checked.value.shared, mentions: checked.value.mentions } };
  }
  const max = msgType === 'text' ? limits.maxTextBytes : limits.maxCardBytes;
  if (utf8Bytes(content) > max) return { error: FeishuErrors.contentTooLong() };
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return { error: FeishuErrors.invalidParam('content is not a JSON string') };
  }
  if (msgType === 'text') {
    const text = (parsed as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') return { error: FeishuErrors.invalidParam('text content needs {"text": string}') };
    return { value: { shared: false, mentions: [...text.matchAll(TEXT_MENTION)].map((m) => m[1]!) } };
  }
  return { value: { shared: false, mentions: [] } };
}
