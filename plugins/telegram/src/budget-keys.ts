import { createHash } from 'node:crypto';
import type { BudgetKey, BudgetWindow, BudgetedCall, ChannelSettings } from '@progresscard/core/plugin';
import { isPrivateChat, type TelegramTarget } from './transport/transport.js';

/** Windows of one chat and of one group (see {@link TELEGRAM_CHAT_BUDGETS}). */
export interface TelegramChatBudgets {
  readonly chat: readonly BudgetWindow[];
  readonly group: readonly BudgetWindow[];
}

/**
 * "In a single chat, avoid sending more than one message per second"; "your bot will not be able to
 * send more than 20 messages per minute to the same group"
 * (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this).
 */
export const TELEGRAM_CHAT_BUDGETS: TelegramChatBudgets = {
  chat: [{ limit: 1, intervalMs: 1000 }],
  group: [{ limit: 20, intervalMs: 60_000 }],
};

/**
 * The budgets of one Telegram call, as the Bots FAQ counts them: the bot's own (`settings.budget`,
 * 30 messages a second across chats; first, so a 429 pauses the channel), the chat's (`budgets.chat`,
 * one a second; edits are counted too, observed not documented), and for a group or supergroup
 * (every topic of it) `budgets.group`, 20 a minute. Drafts of a private chat draw from the chat's key as well: how Telegram counts
 * them is not documented (UNCONFIRMED), so they share the chat's second. The bot is named by a
 * short SHA-256 digest of the token, never the token itself.
 */
export function telegramBudgetKeys(botToken: string, defaultChat: number | string, budgets: TelegramChatBudgets = TELEGRAM_CHAT_BUDGETS) {
  const bot = `telegram:${createHash('sha256').update(botToken).digest('hex').slice(0, 12)}`;
  return (call: BudgetedCall<TelegramTarget | number | string>, settings: ChannelSettings): readonly BudgetKey[] => {
    const fromMessage = call.message?.extra?.chatId ?? call.replyTo?.extra?.chatId;
    const target = call.target;
    const chat = fromMessage ?? (typeof target === 'object' && target !== null ? target.chatId : target) ?? defaultChat;
    const keys: BudgetKey[] = [{ key: bot, windows: settings.budget }, { key: `${bot}:chat:${String(chat)}`, windows: budgets.chat }];
    if (!isPrivateChat(chat as number | string)) keys.push({ key: `${bot}:group:${String(chat)}`, windows: budgets.group });
    return keys;
  };
}
