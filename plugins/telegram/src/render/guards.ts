import { TELEGRAM_LIMITS, type TelegramLimits } from './limits.js';
import type { TelegramMessage } from './payload.js';

/** The text the user sees of an HTML message the renderer made (tags dropped, the four entities decoded). */
function visibleText(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(lt|gt|quot|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[name]!);
}

/**
 * What Telegram would refuse in a message: text over 4096 characters after entities parsing
 * (counted in UTF-16 code units, as Telegram counts entity offsets), an empty text (drafts may be
 * empty), `callback_data` of 0 or more than 64 bytes (https://core.telegram.org/bots/api#sendmessage,
 * https://core.telegram.org/bots/api#inlinekeyboardbutton). Empty when it would pass.
 */
export function telegramMessageProblems(message: TelegramMessage, limits: TelegramLimits = TELEGRAM_LIMITS): string[] {
  const problems: string[] = [];
  const visible = visibleText(message.text);
  if (visible.length > limits.maxTextChars) problems.push(`text is ${visible.length} characters after parsing (at most ${limits.maxTextChars})`);
  if (visible.trim() === '' && !message.stream) problems.push('text is empty');
  for (const row of message.keyboard ?? []) {
    for (const button of row) {
      const bytes = Buffer.byteLength(button.callback_data);
      if (bytes === 0 || bytes > limits.maxCallbackDataBytes) problems.push(`callback_data of "${button.text}" is ${bytes} bytes (1 to ${limits.maxCallbackDataBytes})`);
    }
  }
  return problems;
}
