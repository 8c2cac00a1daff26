import { createHash } from 'node:crypto';
import type { BudgetKey, BudgetWindow, BudgetedCall, ChannelSettings } from '@progresscard/core/plugin';
import { TEAMS_CONVERSATION_WINDOWS, TEAMS_PERSONAL_CHAT_WINDOWS, conversationTypeOf } from './config.js';
import { conversationOf, type TeamsTarget } from './transport/target.js';

/**
 * The budgets of one Teams call, as https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit
 * counts them: the app's (`settings.budget`, 30 a second per app per tenant; first, so a 429 pauses the
 * channel) and the conversation's (sends, updates and stream chunks of the bot in one thread:
 * `conversationWindows` when given, else {@link TEAMS_PERSONAL_CHAT_WINDOWS} for a 1:1 chat and
 * {@link TEAMS_CONVERSATION_WINDOWS} for the others). The app is named by a short SHA-256 digest of its id,
 * never the secret.
 */
export function teamsBudgetKeys(appId: string, defaultConversation: string, conversationWindows?: readonly BudgetWindow[]) {
  const app = `teams:${createHash('sha256').update(appId).digest('hex').slice(0, 12)}`;
  return (call: BudgetedCall<TeamsTarget>, settings: ChannelSettings): readonly BudgetKey[] => {
    const fromMessage = call.message?.extra?.conversationId ?? call.replyTo?.extra?.conversationId;
    const conversation = typeof fromMessage === 'string' ? fromMessage : (conversationOf(call.target)?.id ?? defaultConversation);
    return [
      { key: app, windows: settings.budget },
      { key: `${app}:conversation:${conversation}`, windows: conversationWindows ?? (conversationTypeOf(conversation) === 'personal' ? TEAMS_PERSONAL_CHAT_WINDOWS : TEAMS_CONVERSATION_WINDOWS) },
    ];
  };
}
