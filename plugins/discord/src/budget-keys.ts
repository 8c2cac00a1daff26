import { createHash } from 'node:crypto';
import type { AnnouncedLimits, BudgetKey, BudgetedCall, ChannelSettings } from '@progresscard/core/plugin';
import { DISCORD_ROUTES } from './transport/routes.js';
import type { DiscordTarget } from './transport/transport.js';

/** The bot as budget keys name it: a short SHA-256 digest of the token, never the token. */
export function discordBotKey(botToken: string): string {
  return `discord:${createHash('sha256').update(botToken).digest('hex').slice(0, 12)}`;
}

/**
 * The budgets of one Discord call: the bot's global limit first (`settings.budget`, 50 a second;
 * a global 429 pauses the channel), then the route's bucket as its answers announced it
 * (`limits.keysFor`, https://discord.com/developers/docs/topics/rate-limits): create and edit per
 * channel, each bucket paced by the limit and window Discord last announced, and held until the
 * reset while Discord says it is spent.
 */
export function discordBudgetKeys(botToken: string, defaultChannel: string, limits: AnnouncedLimits) {
  const bot = discordBotKey(botToken);
  return (call: BudgetedCall<DiscordTarget | string>, settings: ChannelSettings): readonly BudgetKey[] => {
    const fromMessage = call.message?.extra?.channelId ?? call.replyTo?.extra?.channelId;
    const target = call.target;
    const channel = String(fromMessage ?? (typeof target === 'string' ? target : target?.channelId) ?? defaultChannel);
    const route = call.kind === 'update' && call.message ? DISCORD_ROUTES.editMessage(channel, call.message.id).route : DISCORD_ROUTES.createMessage(channel).route;
    return [{ key: `${bot}:global`, windows: settings.budget }, limits.keysFor(route)];
  };
}
