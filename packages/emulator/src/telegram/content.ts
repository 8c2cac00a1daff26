import { TelegramErrors, type TelegramError } from './codes.js';
import { parseTelegramHtml } from './html.js';
import type { Args } from './args.js';
import type { TelegramLimits } from './limits.js';

/** What a send, an edit or a draft shows: the text as sent (`source`) and as seen, and the inline keyboard. */
export interface TelegramContent {
  readonly source: string;
  readonly text: string;
  readonly markup?: unknown;
}

/**
 * The text and inline keyboard of sendMessage, editMessageText and sendMessageDraft, or the error
 * the Bot API answers for them (https://core.telegram.org/bots/api#sendmessage): `text` 1-4096
 * characters after entities parsing (empty allowed for drafts), HTML that parses with
 * `parse_mode: HTML`, `callback_data` of 1-64 bytes.
 */
export function messageContent(args: Args, allowEmpty: boolean, limits: TelegramLimits): TelegramContent & { error?: TelegramError } {
  const source = typeof args.text === 'string' ? args.text : '';
  let text = source;
  if (args.parse_mode === 'HTML') {
    const parsed = parseTelegramHtml(source);
    if (!parsed.ok) return { error: TelegramErrors.cantParseEntities(parsed.error), source, text };
    text = parsed.text;
  }
  // "1-4096 characters after entities parsing"; counted here in UTF-16 code units, as entity offsets are.
  if (text.length > limits.maxTextChars) return { error: TelegramErrors.messageTooLong(), source, text };
  if (!allowEmpty && text.trim() === '') return { error: TelegramErrors.textEmpty(), source, text };
  const markup = args.reply_markup as { inline_keyboard?: unknown } | undefined;
  if (markup !== undefined) {
    const rows = markup?.inline_keyboard;
    if (!Array.isArray(rows)) return { error: TelegramErrors.cantParseEntities("can't parse reply keyboard markup JSON object"), source, text };
    for (const row of rows as unknown[]) {
      for (const button of (Array.isArray(row) ? row : []) as Record<string, unknown>[]) {
        const data = button.callback_data;
        if (data !== undefined && (typeof data !== 'string' || data === '' || Buffer.byteLength(data) > limits.maxCallbackDataBytes)) return { error: TelegramErrors.buttonDataInvalid(), source, text };
      }
    }
  }
  return { source, text, markup };
}
