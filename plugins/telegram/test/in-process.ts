import { inProcessChannel, type InProcessChannel } from '@progresscard/core/testing';
import { DEFAULT_TELEGRAM_BOT as BOT, createTelegramEmulator, type TelegramEmulatorCore, type TelegramEmulatorOptions } from '@progresscard/emulator';
import { vi } from 'vitest';
import { telegram, type TelegramConfigInput } from '../src/index.js';

const API_ROOT = 'http://telegram.test';

/** A Telegram emulator answering in process on fake time, the plugin pointed at it, and a composition of the core. */
export type InProcess = InProcessChannel<TelegramEmulatorCore>;

/** The kit's {@link inProcessChannel} over the Telegram emulator and plugin. Default: the bot's private chat. */
export function inProcess(options: { plugin?: Partial<TelegramConfigInput>; emulator?: TelegramEmulatorOptions } = {}): InProcess {
  return inProcessChannel(vi, {
    apiRoot: API_ROOT,
    emulator: () => createTelegramEmulator({ clock: () => Date.now(), ...options.emulator }),
    plugin: () => telegram({ botToken: BOT.botToken, chatId: BOT.privateChat, apiRoot: API_ROOT, locale: 'en', ...options.plugin }, { env: {} }),
  });
}
