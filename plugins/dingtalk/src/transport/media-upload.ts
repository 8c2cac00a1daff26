import { platformCallMade } from '@progresscard/core/plugin';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { DingTalkApiError, DingTalkNetworkError, type DingTalkOperation } from './errors.js';
import { AccessTokenCache } from './token.js';
import type { DingTalkHttp } from './http.js';

/** Default host of the old-style DingTalk API (media upload, `gettoken`). */
export const DINGTALK_OAPI_BASE_URL = 'https://oapi.dingtalk.com';

/**
 * Most bytes of a file a robot sends: 20 MB for `type=file` uploads, as community SDKs and
 * connectors enforce it (e.g. OpenClaw DingTalk connectors' `MAX_FILE_SIZE`); UNCONFIRMED against
 * the official page (https://open.dingtalk.com/document/orgapp/upload-media-files).
 */
export const DINGTALK_MAX_FILE_BYTES = 20 * 1024 * 1024;

/** errcodes of an old-style token that is not (or no longer) valid: 40014 不合法的access_token, 42001 access_token timed out. */
const TOKEN_ERRCODES = new Set([40014, 42001]);

/**
 * Uploads files to the old-style media API: `POST /media/upload?access_token=…&type=file`, the file
 * in the multipart field `media`, answering `{errcode: 0, media_id, type, created_at}`
 * (https://open.dingtalk.com/document/orgapp/upload-media-files; a `media_id` is valid 3 days).
 * The host takes its token in the query, from `GET /gettoken?appkey=&appsecret=`
 * (https://open.dingtalk.com/document/development/obtain-orgapp-token), cached like the v1.0 token;
 * DingTalk's connectors keep this token apart from the v1.0 `accessToken` and so does this class.
 * Errors come as a non-zero `errcode` in an HTTP 200. Tokens and secrets never reach errors.
 */
export class DingTalkMediaUploader {
  readonly #axios: AxiosInstance;
  readonly #tokens: AccessTokenCache;

  constructor(options: { baseUrl: string; timeoutMs: number; appKey: string; appSecret: string; http: DingTalkHttp; now?: () => number }) {
    this.#axios = axios.create({
      baseURL: options.baseUrl.replace(/\/+$/, ''),
      timeout: options.timeoutMs,
      validateStatus: () => true,
      // Tokens must never go to another host.
      maxRedirects: 0,
      responseType: 'json',
    });
    const { appKey, appSecret } = options;
    this.#tokens = new AccessTokenCache(options.http, appKey, appSecret, options.now, async () => {
      const answer = await this.#request('oapiToken', () => this.#axios.get('/gettoken', { params: { appkey: appKey, appsecret: appSecret } }));
      return { accessToken: answer.access_token, expireIn: answer.expires_in };
    });
  }

  /**
   * Uploads one file; resolves to its `media_id`. A token DingTalk calls invalid (errcode 40014,
   * 42001) is fetched again once.
   * @throws DingTalkApiError (`code` `errcode <n>`, e.g. 40006 for a file DingTalk finds too large),
   *   DingTalkNetworkError.
   */
  async upload(name: string, bytes: Buffer): Promise<string> {
    try {
      return await this.#uploadOnce(name, bytes);
    } catch (error) {
      if (!(error instanceof DingTalkApiError && TOKEN_ERRCODES.has(Number(error.code?.replace('errcode ', ''))))) throw error;
      this.#tokens.invalidate();
      return this.#uploadOnce(name, bytes);
    }
  }

  async #uploadOnce(name: string, bytes: Buffer): Promise<string> {
    const token = await this.#tokens.get();
    const form = new FormData();
    form.append('media', new Blob([new Uint8Array(bytes)]), name);
    platformCallMade();
    const answer = await this.#request('mediaUpload', () => this.#axios.post('/media/upload', form, { params: { access_token: token, type: 'file' } }));
    if (typeof answer.media_id !== 'string' || answer.media_id === '') throw new DingTalkApiError('mediaUpload', 200, 'media_id.missing', 'the answer had no media_id');
    return answer.media_id;
  }

  async #request(operation: DingTalkOperation, call: () => Promise<AxiosResponse<unknown>>): Promise<Record<string, unknown>> {
    let response: AxiosResponse<unknown>;
    try {
      response = await call();
    } catch (error) {
      const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
      throw new DingTalkNetworkError(operation, code, code === 'ECONNABORTED' || code === 'ETIMEDOUT');
    }
    const data = response.data;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new DingTalkApiError(operation, response.status, 'response.notJson', 'the answer was not a JSON object');
    const body = data as Record<string, unknown>;
    if (response.status < 200 || response.status >= 300 || body.errcode !== 0) {
      throw new DingTalkApiError(operation, response.status, `errcode ${String(body.errcode ?? '(none)')}`, typeof body.errmsg === 'string' ? body.errmsg : undefined);
    }
    return body;
  }
}

/** `fileType` of a `sampleFile` message: the name's extension, lower case (`report.PDF` → `pdf`); `file` when it has none. */
export function fileTypeOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? match[1]!.toLowerCase() : 'file';
}
