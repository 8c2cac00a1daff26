import { createProgressCards, type ProgressCard, type ProgressCards } from '@progresscard/core';
import { recordingLogger, type RecordingLogger } from '@progresscard/core/testing';
import { WeComEmulator, type WeComLimits } from '@progresscard/emulator';
import { wecom, wecomCallbacks, type WeComConfigInput, type WeComInboundMessage, type WeComPlugin } from '../src/index.js';

/** The bot's callback secrets in tests (made up: a 43-character EncodingAESKey and a token). */
export const BOT = { token: 'progresscardToken1', encodingAESKey: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', botId: 'aib_emulated' } as const;

/** A WeCom bot and the emulated platform wired in-process (no sockets): for fake-time tests. */
export interface InProcessBot {
  readonly emulator: WeComEmulator;
  readonly plugin: WeComPlugin;
  readonly cards: ProgressCards;
  readonly logger: RecordingLogger;
  /** Cards opened for users' messages, in order. */
  readonly opened: { message: WeComInboundMessage; card: ProgressCard }[];
}

export function inProcessBot(config: Partial<WeComConfigInput> = {}, limits: Partial<WeComLimits> = {}): InProcessBot {
  let emulator: WeComEmulator | undefined;
  const plugin = wecom({ ...BOT, ...config }, { env: {}, fetch: (url, init) => emulator!.fetch(url, init) });
  const callbacks = wecomCallbacks(plugin);
  emulator = new WeComEmulator({ ...BOT, limits, deliver: async (request) => callbacks.handle(request) });
  const logger = recordingLogger();
  const cards = createProgressCards({ channels: [plugin], env: {}, logger });
  const opened: InProcessBot['opened'] = [];
  callbacks.onMessage((message) => opened.push({ message, card: cards.open('wecom', message.target, { locale: 'en' }) }));
  return { emulator, plugin, cards, logger, opened };
}
