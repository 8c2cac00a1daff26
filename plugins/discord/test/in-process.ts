import { inProcessChannel, type InProcessChannel } from '@progresscard/core/testing';
import { DEFAULT_DISCORD_APP as APP, createDiscordEmulator, type DiscordEmulatorCore, type DiscordEmulatorOptions } from '@progresscard/emulator';
import { vi } from 'vitest';
import { discord, type DiscordConfigInput } from '../src/index.js';

const API_ROOT = 'http://discord.test';

/** A Discord emulator answering in process on fake time, the plugin pointed at it, and a composition of the core. */
export type InProcess = InProcessChannel<DiscordEmulatorCore>;

/**
 * The kit's {@link inProcessChannel} over the Discord emulator and plugin: the limits the plugin
 * learns from the `X-RateLimit-*` headers are announced on the same faked clock. Default: the emulator's channel.
 */
export function inProcess(options: { plugin?: Partial<DiscordConfigInput>; emulator?: DiscordEmulatorOptions } = {}): InProcess {
  return inProcessChannel(vi, {
    apiRoot: API_ROOT,
    emulator: () => createDiscordEmulator({ clock: () => Date.now(), ...options.emulator }),
    plugin: () => discord({ botToken: APP.botToken, channelId: APP.channel, apiUrl: `${API_ROOT}/api/v10`, locale: 'en', ...options.plugin }, { env: {} }),
  });
}
