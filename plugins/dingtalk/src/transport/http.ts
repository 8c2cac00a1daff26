import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { DingTalkApiError, DingTalkNetworkError } from './errors.js';
import type { DingTalkRoute } from './routes.js';

/** Header carrying the access token on every v1.0 endpoint (https://open.dingtalk.com/document/development/obtain-the-access-token-of-an-internal-app). */
const ACCESS_TOKEN_HEADER = 'x-acs-dingtalk-access-token';

/** Code of a {@link DingTalkApiError} for an answer that is not a JSON object (e.g. an HTML page). */
export const NOT_JSON_CODE = 'response.notJson';
/**
 * Code of a {@link DingTalkApiError} for the per-IP ban answer `{"status":1111,"wait":5,"punish":"deny"}`:
 * more than 10 000 calls in 20 s from one IP bans it for 5 minutes
 * (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server).
 */
export const IP_BANNED_CODE = 'ip.banned';
/** Code of a {@link DingTalkApiError} for a 2xx whose body says `result: false`: the update was not applied. */
export const RESULT_FALSE_CODE = 'result.false';

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
   * @throws DingTalkApiError for a non-2xx answer, a 2xx with `success: false` or `result: false`,
   *   an answer that is not a JSON object, or the per-IP ban answer;
   *   DingTalkNetworkError when no answer came.
   */
  async call<Body, Answer>(route: DingTalkRoute<Body, Answer>, body: Body, token?: string): Promise<Answer> {
    const { operation } = route;
    let response: AxiosResponse<unknown>;
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
    const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const requestId = str(response.headers['x-acs-request-id']);
    if (typeof response.data !== 'object' || response.data === null || Array.isArray(response.data)) {
      // The per-IP ban answers with an HTML page (how-to-process-api-throttling-on-the-dingtalk-server).
      throw new DingTalkApiError(operation, response.status, NOT_JSON_CODE, 'the answer was not a JSON object', requestId);
    }
    const data = response.data as Record<string, unknown>;
    if (data.punish === 'deny') {
      const waitMinutes = typeof data.wait === 'number' && data.wait > 0 ? data.wait : 5;
      throw new DingTalkApiError(operation, response.status, IP_BANNED_CODE, `egress IP banned for ${waitMinutes} min`, requestId);
    }
    if (response.status < 200 || response.status >= 300 || data.success === false) {
      const detail = data.accessdenieddetail as { requiredScopes?: unknown } | undefined;
      const scopes = Array.isArray(detail?.requiredScopes) ? detail.requiredScopes.filter((scope): scope is string => typeof scope === 'string') : undefined;
      throw new DingTalkApiError(operation, response.status, str(data.code), str(data.message), str(data.requestid) ?? requestId, scopes);
    }
    if (data.result === false) {
      throw new DingTalkApiError(operation, response.status, RESULT_FALSE_CODE, 'the answer said result: false (not applied)', str(data.requestid) ?? requestId);
    }
    return data as Answer;
  }
}
