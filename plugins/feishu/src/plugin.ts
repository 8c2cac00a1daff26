import type { CardView, ChannelSettings, ChannelPlugin } from '@progresscard/core';
import type { FeishuPayload } from './card-types.js';
import { FeishuConfigSchema, parseFeishuConfig, type FeishuConfig, type FeishuConfigInput } from './config.js';
import { renderCard, type CardRenderOptions } from './render/card.js';
import { renderFallbackCard } from './render/fallback.js';
import { FeishuTransport, type FeishuTarget, type FeishuTransportOptions } from './transport.js';

/**
 * Feishu's channel defaults: tick 3000 ms; budget 50 calls/s and 1000/min per app (message/create,
 * message/patch docs); 250 ms between two calls for one card (5 updates/s per message); text
 * released to the card at least every 2500 ms.
 */
export const FEISHU_DEFAULTS: ChannelSettings = {
  tickMs: 3000,
  budget: [
    { limit: 50, intervalMs: 1000 },
    { limit: 1000, intervalMs: 60_000 },
  ],
  perCardIntervalMs: 250,
  debounceMs: 2500,
};

/** The Feishu channel plugin. `config` is the validated config without the app secret. */
export interface FeishuPlugin extends ChannelPlugin<FeishuPayload, FeishuTarget | string> {
  readonly id: 'feishu';
  readonly config: Readonly<Omit<FeishuConfig, 'appSecret'>>;
}

/**
 * The Feishu/Lark channel: Card JSON 2.0 cards sent and patched through the official SDK.
 *
 * ```ts
 * const cards = createProgressCards({ channels: [feishu({ appId, appSecret, receiveId: 'oc_…' })] });
 * ```
 * @throws FeishuConfigError naming the bad field and value (never the secret).
 */
export function feishu(config: FeishuConfigInput, options: Pick<FeishuTransportOptions, 'client'> = {}): FeishuPlugin {
  const parsed = parseFeishuConfig(config);
  const render: CardRenderOptions = {
    locale: parsed.locale,
    footerStyle: parsed.footerStyle,
    timeZone: parsed.timeZone,
    overflow: parsed.overflow,
  };
  const { appSecret: _secret, ...visible } = parsed;
  const overrides: Partial<ChannelSettings> = Object.fromEntries(
    Object.entries({ tickMs: parsed.tickMs, perCardIntervalMs: parsed.perCardIntervalMs, debounceMs: parsed.debounceMs, budget: parsed.budget }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  return {
    id: 'feishu',
    configSchema: FeishuConfigSchema,
    defaults: FEISHU_DEFAULTS,
    overrides,
    config: Object.freeze(visible),
    renderer: {
      render: (view: CardView) => renderCard(view, render),
      renderFallback: (view: CardView) => renderFallbackCard(view, render),
    },
    transport: new FeishuTransport(parsed, options),
  };
}
