import type { WeComPayload } from '../render/payload.js';
import { WeComApiError } from './errors.js';

/** A `fetch` the transport posts with (the global one by default; an emulator's in tests). */
export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal }) => Promise<{ status: number; text(): Promise<string> }>;

/**
 * Posts one Markdown message to a `response_url`: plaintext JSON `{"msgtype":"markdown",…}`,
 * answered `{"errcode":0,"errmsg":"ok"}` (https://developer.work.weixin.qq.com/document/path/101138).
 * @throws WeComApiError on a non-zero errcode or an HTTP error; the fetch's error on a network failure or timeout.
 */
export async function postToResponseUrl(fetchFn: FetchLike, url: string, payload: WeComPayload, timeoutMs: number): Promise<void> {
  const response = await fetchFn(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ msgtype: 'markdown', markdown: { content: payload.markdown } }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let answer: { errcode?: unknown; errmsg?: unknown } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    answer = {};
  }
  const errcode = typeof answer.errcode === 'number' ? answer.errcode : response.status >= 400 ? -1 : 0;
  if (response.status >= 400 || errcode !== 0) throw new WeComApiError(errcode, typeof answer.errmsg === 'string' ? answer.errmsg : text.slice(0, 200), response.status);
}
