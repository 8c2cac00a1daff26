import * as lark from '@larksuiteoapi/node-sdk';
import axios from 'axios';
import type { FeishuConfig } from '../config.js';
import type { TokenCache } from './token.js';

const silentSdkLogger = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

type ClientOptions = ConstructorParameters<typeof lark.Client>[0];

/**
 * The SDK client of one plugin: its own token cache (so `refreshAuth` can drop the
 * tenant_access_token), an axios instance with the config's request timeout, and no SDK logging
 * (the SDK would log whole axios errors, request headers included).
 */
export function createFeishuClient(config: FeishuConfig, tokens: TokenCache): lark.Client {
  const http = axios.create({ timeout: config.requestTimeoutMs });
  // Same contract as the SDK's default instance: methods resolve to the JSON body.
  http.interceptors.response.use((response) =>
    (response.config as { $return_headers?: boolean }).$return_headers ? { data: response.data, headers: response.headers } : response.data,
  );
  const domain = config.domain === 'feishu' ? lark.Domain.Feishu : config.domain === 'lark' ? lark.Domain.Lark : config.domain.replace(/\/+$/, '');
  return new lark.Client({
    appId: config.appId,
    appSecret: config.appSecret,
    appType: lark.AppType.SelfBuild,
    domain,
    cache: tokens as unknown as NonNullable<ClientOptions['cache']>,
    httpInstance: http as unknown as NonNullable<ClientOptions['httpInstance']>,
    logger: silentSdkLogger,
  });
}
