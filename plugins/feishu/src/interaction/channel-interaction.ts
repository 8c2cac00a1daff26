import * as lark from '@larksuiteoapi/node-sdk';
import type { CardView, ChannelInteraction } from '@progresscard/core/plugin';
import type { FeishuConfig } from '../config.js';
import type { FeishuCard } from '../render/payload.js';
import { FeishuHttpCallbacks } from './http-callbacks.js';
import { FeishuLongConnectionCallbacks } from './long-connection.js';

/** The card callbacks of a config (`callbacks`), or undefined when none are configured. */
export function feishuInteraction(config: FeishuConfig, render: (view: CardView) => FeishuCard): ChannelInteraction | undefined {
  const callbacks = config.callbacks;
  if (!callbacks) return undefined;
  if (callbacks.mode === 'http') return new FeishuHttpCallbacks({ ...callbacks, render });
  const domain = config.domain === 'feishu' ? lark.Domain.Feishu : config.domain === 'lark' ? lark.Domain.Lark : config.domain.replace(/\/+$/, '');
  return new FeishuLongConnectionCallbacks({ appId: config.appId, appSecret: config.appSecret, domain, render });
}
