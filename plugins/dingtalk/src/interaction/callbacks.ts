import type { CardView, ChannelInteraction } from '@progresscard/core/plugin';
import type { DingTalkConfig } from '../config.js';
import type { DingTalkCardPayload } from '../render/payload.js';
import type { DingTalkHttp } from '../transport/http.js';
import { DINGTALK_API_ROUTES } from '../transport/routes.js';
import type { AccessTokenCache } from '../transport/token.js';
import { DingTalkHttpCallbacks } from './http-callbacks.js';
import { DingTalkStreamCallbacks } from './stream-callbacks.js';

/**
 * The card callbacks of a config (`callbacks`), or undefined when none are configured: Stream mode
 * (the official `dingtalk-stream` client), or an HTTP endpoint registered for the config's route
 * key with `POST /v1.0/card/callbacks/register`
 * (https://open.dingtalk.com/document/development/register-card-callback-address).
 */
export function dingtalkInteraction(
  config: DingTalkConfig,
  api: { readonly http: DingTalkHttp; readonly tokens: AccessTokenCache },
  render: (view: CardView) => DingTalkCardPayload,
): ChannelInteraction | undefined {
  const callbacks = config.callbacks;
  if (!callbacks) return undefined;
  const contentKey = config.templateKeys.content;
  if (callbacks.mode === 'stream') {
    return new DingTalkStreamCallbacks({ appKey: config.appKey, appSecret: config.appSecret, baseUrl: config.baseUrl, contentKey, render });
  }
  return new DingTalkHttpCallbacks({
    ...callbacks,
    contentKey,
    render,
    register: async (callbackUrl) => {
      const body = { callbackRouteKey: callbacks.routeKey, callbackUrl, ...(callbacks.apiSecret ? { apiSecret: callbacks.apiSecret } : {}), forceUpdate: true };
      await api.http.call(DINGTALK_API_ROUTES.registerCallback, body, await api.tokens.get());
    },
  });
}
