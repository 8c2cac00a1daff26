/**
 * WeCom AI bot limits the renderer keeps to.
 * - `streamBytes`: `stream.content` is at most 20 480 bytes of UTF-8
 *   (https://developer.work.weixin.qq.com/document/path/101031; the official SDK's `StreamReplyBody`
 *   comment says the same). The Markdown posted to `response_url` is given the same limit
 *   (its own limit is UNCONFIRMED, https://developer.work.weixin.qq.com/document/path/101138).
 * - `maxButtons`: a `button_interaction` card has at most 6 buttons; `maxKeyBytes`: a button `key`
 *   is at most 1024 bytes; `maxTaskIdBytes`: `task_id` at most 128 bytes (same page).
 * - `titleChars` / `buttonChars`: the recommended ("建议") lengths of `main_title.title` and a
 *   button's text; whether longer ones are cut or refused is UNCONFIRMED, so they are cut.
 */
export const WECOM_LIMITS = {
  streamBytes: 20_480,
  maxButtons: 6,
  maxKeyBytes: 1024,
  maxTaskIdBytes: 128,
  titleChars: 26,
  buttonChars: 10,
  /** Continuation parts after the stream (one `response_url` per user message: one part). */
  maxParts: 1,
} as const;

/** The limits, as the renderer takes them. */
export type WeComLimits = { readonly [K in keyof typeof WECOM_LIMITS]: number };
