import type { AnyChannelPlugin } from '../channels/descriptor.js';
import type { Emulators } from '../channels/emulated.js';
import type { CardOutcome } from './engine.js';

/** One card's final state for `--json`: what the platform holds (emulator read-back) or what was sent. */
export interface FinalCardJson {
  readonly channel: string;
  readonly run: number;
  readonly status: string;
  /** The trace's terminal state for the run (`null`: the trace ended mid-run). */
  readonly expected: string | null;
  /** Platform message / card id (Feishu `message_id`, DingTalk `outTrackId`). */
  readonly messageId: string | null;
  /** True when the platform accepted the final state. */
  readonly delivered: boolean;
  /** Calls spent on the final state, retries included. */
  readonly finalAttempts: number;
  /** `emulator`: read back from the emulator; `renderer`: the plugin's render of the final view (real platforms). */
  readonly payloadSource: 'emulator' | 'renderer';
  /**
   * What the channel's descriptor reads back (Feishu: the card JSON; DingTalk: `{ cardParamMap, state }`),
   * or the plugin's render (Feishu: the card JSON; DingTalk: `{ cardParamMap }`).
   */
  readonly payload: unknown;
}

/** The final payload of each card. */
export function finalPayloads(
  cards: readonly CardOutcome[],
  plugins: readonly AnyChannelPlugin[],
  emulators: Emulators | undefined,
): FinalCardJson[] {
  return cards.map((card) => {
    const messageId = card.final?.message?.id ?? null;
    let payload: unknown;
    let payloadSource: FinalCardJson['payloadSource'] = 'emulator';
    if (messageId) payload = emulators?.channel(card.channel)?.finalPayload(messageId);
    if (payload === undefined) {
      payloadSource = 'renderer';
      payload = plugins.find((p) => p.id === card.channel)?.renderer.render(card.view) ?? null;
    }
    return {
      channel: card.channel,
      run: card.run,
      status: card.status,
      expected: card.expected ?? null,
      messageId,
      delivered: card.final?.ok === true,
      finalAttempts: card.final?.attempts ?? 0,
      payloadSource,
      payload,
    };
  });
}
