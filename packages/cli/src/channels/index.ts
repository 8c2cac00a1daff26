import type { AnyChannelDescriptor } from './descriptor.js';
import { dingtalkChannel } from './dingtalk.js';
import { feishuChannel } from './feishu.js';
import { discordChannel } from './discord.js';
import { slackChannel } from './slack.js';
import { telegramChannel } from './telegram.js';
import { wecomChannel } from './wecom.js';

/** Every channel the CLI can replay to, in the order commands list them. Add a channel here. */
export const CHANNELS = [feishuChannel, dingtalkChannel, slackChannel, telegramChannel, discordChannel, wecomChannel] as const satisfies readonly AnyChannelDescriptor[];

/** A channel the CLI replays to (`--channel <id>`). */
export type ChannelId = (typeof CHANNELS)[number]['id'];

/** Channel ids the CLI can replay to, in {@link CHANNELS} order. */
export const CHANNEL_IDS: readonly ChannelId[] = CHANNELS.map((channel) => channel.id);

/** The descriptor of `id`. @throws Error for an id not in {@link CHANNELS} (a bug: ids are parsed first). */
export function channelDescriptor(id: ChannelId): AnyChannelDescriptor {
  const found = CHANNELS.find((channel) => channel.id === id);
  if (!found) throw new Error(`unknown channel ${JSON.stringify(id)}`);
  return found;
}
