import type { ReceiveIdType } from '../config.js';

/**
 * Where a card goes. A string is a receive id of the configured `receiveIdType`; fields left out
 * come from the config.
 */
export interface FeishuTarget {
  readonly receiveIdType?: ReceiveIdType;
  readonly receiveId?: string;
  /** Send the card as a reply to this message. */
  readonly replyToMessageId?: string;
  readonly replyInThread?: boolean;
}

/**
 * A ready `Client` of `@larksuiteoapi/node-sdk` (`new lark.Client({ appId, appSecret, … })`).
 * Typed by shape here, not by the SDK's own type: naming that type in the plugin's public types
 * made every consumer's `tsc` read the SDK's 300 000-line type file.
 */
export interface FeishuSdkClient {
  readonly im: object;
  readonly request: (...args: never[]) => unknown;
}
