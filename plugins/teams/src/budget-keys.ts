import { createHash } from 'node:crypto';
import type { BudgetKey, BudgetWindow, BudgetedCall, ChannelSettings } from '@progresscard/core/plugin';
import { TEAMS_CONVERSATION_WINDOWS } from './config.js';
import { conversationOf, type TeamsTarget } from './transport/target.js';

/**
 * The budgets of one Teams call, as https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit
 * counts them: the app's (`settings.budget`, 30 a second per app per tenant; first, so a 429 pauses the
 * channel) and the conversation's ({@link TEAMS_CONVERSATION_WINDOWS}: sends, updates and stream chunks of
 * the bot in one thread). The app is named by a short SHA-256 digest of its id, never the secret.
 */
export function teamsBudgetKeys(appId: string, defaultConversation: string, conversationWindows: readonly BudgetWindow[] = TEAMS_CONVERSATION_WINDOWS) {
  const app = `teams:${createHash('sha256').update(appId).digest('hex').slice(0, 12)}`;
  return (call: BudgetedCall<TeamsTarget>, settings: ChannelSettings): readonly BudgetKey[] => {
    const fromMessage = call.message?.extra?.conversationId ?? call.replyTo?.extra?.conversationId;
    const conversation = typeof fromMessage === 'string' ? fromMessage : (conversationOf(call.target)?.id ?? defaultConversation);
    return [
      { key: app, windows: settings.budget },
      { key: `${app}:conversation:${conversation}`, windows: conversationWindows },
    ];
  };
}
