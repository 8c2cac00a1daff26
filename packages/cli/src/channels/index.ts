import type { AnyChannelDescriptor } from './descriptor.js';
import { dingtalkChannel } from './dingtalk.js';
import { feishuChannel } from './feishu.js';
import { discordChannel } from './discord.js';
import { slackChannel } from './slack.js';
import { telegramChannel } from './telegram.js';
import { wecomChannel } from './wecom.js';
import { teamsChannel } from './teams.js';

/** The channels this CLI ships with, in the order commands list them. Add a built-in channel here. */
export const CHANNELS = [feishuChannel, dingtalkChannel, slackChannel, telegramChannel, discordChannel, wecomChannel, teamsChannel] as const satisfies readonly AnyChannelDescriptor[];

/** A channel the CLI ships with. */
export type BuiltInChannelId = (typeof CHANNELS)[number]['id'];

/**
 * A channel the CLI replays to (`--channel <id>`): a built-in one, or one a plugin module
 * registered (`--plugin`, `progresscard.config.mjs`).
 */
export type ChannelId = string;

/** Ids of the built-in channels, in {@link CHANNELS} order. */
export const CHANNEL_IDS: readonly BuiltInChannelId[] = CHANNELS.map((channel) => channel.id);

const registered: AnyChannelDescriptor[] = [];

/**
 * Adds a channel from outside this package (see `loadPluginModules`) after the built-in ones.
 * @throws Error when `descriptor.id` is taken by a built-in or an already registered channel.
 */
export function registerChannel(descriptor: AnyChannelDescriptor): void {
  if (channelList().some((channel) => channel.id === descriptor.id)) {
    throw new Error(`channel id ${JSON.stringify(descriptor.id)} is already taken (built-in or registered twice): give the plugin's channel another id`);
  }
  registered.push(descriptor);
}

/** Forgets every registered channel (tests; the CLI registers once per process). */
export function clearRegisteredChannels(): void {
  registered.length = 0;
}

/** Every channel the commands offer: the built-in ones, then the registered ones. */
export function channelList(): readonly AnyChannelDescriptor[] {
  return [...CHANNELS, ...registered];
}

/** Ids of {@link channelList}, in its order. */
export function channelIds(): readonly ChannelId[] {
  return channelList().map((channel) => channel.id);
}

/** The descriptor of `id`. @throws Error for an id not in {@link channelList} (a bug: ids are parsed first). */
export function channelDescriptor(id: ChannelId): AnyChannelDescriptor {
  const found = channelList().find((channel) => channel.id === id);
  if (!found) throw new Error(`unknown channel ${JSON.stringify(id)}`);
  return found;
}
