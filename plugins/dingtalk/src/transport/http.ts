import axios, { type AxiosInstance } from 'axios';
import { DingTalkApiError, DingTalkNetworkError } from './errors.js';
import type { DingTalkRoute } from './routes.js';

/** Header carrying the access token on every v1.0 endpoint (https://open.dingtalk.com/document/development/obtain-the-access-token-of-an-internal-app). */
export const ACCESS_TOKEN_HEADER = 'x-acs-dingtalk-access-token';

/**
 * A thin JSON client over axios for `api.dingtalk.com` (or the emulator). It never lets an axios error
 * escape, because those carry the request config (token header, secret body): every failure becomes a
 * {@link DingTalkApiError} or a {@link DingTalkNetworkError}.
 */
export class DingTalkHttp {
  private readonly axios: AxiosInstance;

  constructor(baseUrl: string, timeoutMs: number) {
    this.axios = axios.create({
      baseURL: baseUrl.replace(/\/+$/, ''),
      timeout: timeoutMs,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      validateStatus: () => true,
      // Tokens must never go to another host.
      maxRedirects: 0,
    });
  }

  /**
   * Calls `route` with `body` as JSON and returns the parsed 2xx body.
   * @throws DingTalkApiError for a non-2xx answer or a 2xx with `success: false`;
   *   DingTalkNetworkError when no answer came.
   */
  async call<Body, Answer>(route: DingTalkRoute<Body, Answer>, body: Body, token?: string): Promise<Answer> {
    const { operation } = route;
    let response;
    try {
      response = await this.axios.request({
        method: route.method,
        url: route.path,
        data: body,
        headers: token ? { [ACCESS_TOKEN_HEADER]: token } : undefined,
        responseType: 'json',
      });
    } catch (error) {
      const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
      throw new DingTalkNetworkError(operation, code, code === 'ECONNABORTED' || code === 'ETIMEDOUT');
    }
    const data = (typeof response.data === 'object' && response.data !== null ? response.data : {}) as Record<string, unknown>;
    const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
    if (response.status < 200 || response.status >= 300 || data.success === false) {
      throw new DingTalkApiError(operation, response.status, str(data.code), str(data.message), str(data.requestid) ?? str(response.headers['x-acs-request-id']));
    }
    return data as Answer;
  }
}
