import { CliUsageError } from '../errors.js';
import type { AnyChannelPlugin, Env, ReplayChannelSettings } from './descriptor.js';
import { channelDescriptor, channelList, CHANNELS, type BuiltInChannelId, type ChannelId } from './index.js';

/**
 * `--real`: the same replay to the real platform APIs, configured from the environment.
 * Every variable a chosen channel needs is checked before anything is sent.
 */

/** Variables each built-in channel needs with `--real`. */
export const REAL_ENV_VARS = Object.fromEntries(CHANNELS.map((channel) => [channel.id, channel.real.requiredEnv])) as Readonly<
  Record<BuiltInChannelId, readonly string[]>
>;

/** The variables of `channels` that are unset or empty, in a stable order. */
export function missingRealEnv(channels: readonly ChannelId[], env: Env): string[] {
  return channels.flatMap((id) => channelDescriptor(id).real.requiredEnv.filter((name) => !env[name]?.trim()));
}

/**
 * Plugins for the real platforms.
 * @throws CliUsageError (exit 2) naming every missing variable, or the bad config field.
 */
export function realPlugins(channels: readonly ChannelId[], env: Env, settings: ReplayChannelSettings): AnyChannelPlugin[] {
  const missing = missingRealEnv(channels, env);
  if (missing.length > 0) {
    const list = missing.join(', ');
    throw new CliUsageError(
      `--real needs ${missing.length === 1 ? 'the environment variable' : 'these environment variables'} ${list} ` +
        `(channel${channels.length > 1 ? 's' : ''} ${channels.join(', ')}); nothing was sent. ` +
        `Set ${missing.length === 1 ? 'it' : 'them'}${channels.length > 1 ? ', or pick one platform with --channel' : ''}.`,
    );
  }
  return channels.map((id) => channelDescriptor(id).real.plugin(env, settings));
}

/** The `--help` text listing every channel's `--real` variables. */
export function realEnvHelp(): string {
  const width = Math.max(...channelList().map((c) => c.label.length)) + 2;
  return channelList().map((channel) => {
    const optional = channel.real.optionalEnv.map((v) => `${v.name}: ${v.hint}`).join('; ');
    return `  ${`${channel.label}:`.padEnd(width)}${channel.real.requiredEnv.join(', ')}${optional ? `\n  ${' '.repeat(width)}(optional ${optional})` : ''}`;
  }).join('\n');
}
