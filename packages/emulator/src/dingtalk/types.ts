import type { DingTalkCallbackResult, DingTalkClick } from './callbacks.js';
import type { DingTalkRobotMessage } from './robot-messages.js';
import type { DingTalkMediaFile } from './media.js';
import type { Hono } from 'hono';
import type { Clock, FaultInjector, RouteCounts, LimitWindow } from '../common/index.js';
import type { DingTalkCardInstance } from './card-store.js';
import type { DingTalkChangeKind, DingTalkRoute } from './handlers.js';
import type { DingTalkAppCredentials } from './tokens.js';
import type { DingTalkCardDisplay, DingTalkTemplateModel } from './template-model.js';

/** Options of `createDingTalkEmulator` / `startDingTalkEmulator`. Every field is optional. */
export interface DingTalkEmulatorOptions {
  /** Listen host, default `127.0.0.1`. */
  readonly host?: string;
  /** Listen port, default `0` (a free port). */
  readonly port?: number;
  /** Host names accepted in `Host`/`Origin` besides loopback and the listen host (see `ListenOptions.allowedHosts`). */
  readonly allowedHosts?: readonly string[];
  /** Emulator clock (token expiry, rate-limit windows, fault windows, timestamps); default `Date.now`. */
  readonly clock?: Clock;
  /** Apps whose appKey/appSecret pair gets a token; default `[DEFAULT_DINGTALK_APP]`. */
  readonly apps?: readonly DingTalkAppCredentials[];
  /** Token lifetime in seconds (`expireIn`), default 7200. */
  readonly tokenTtlSeconds?: number;
  /**
   * Per app and per API limit (every card route counts separately; the token route is not limited).
   * Default `[{ limit: 20, intervalMs: 1000 }]` (20 QPS, how-to-process-api-throttling-on-the-dingtalk-server);
   * `false` turns it off.
   */
  readonly rateLimit?: readonly LimitWindow[] | false;
  /** When given, other `cardTemplateId`s answer 400 `param.templateNotExist`. Default: any id. */
  readonly templates?: readonly string[];
  /** When given, streaming to other keys answers 500 `unknownError` (soimy#81). Default: any key. */
  readonly streamingKeys?: readonly string[];
  /**
   * Permission scopes the app was not granted, e.g. `['Card.Streaming.Write']`: routes needing one
   * answer 403 `Forbidden.AccessDenied.AccessTokenPermissionDenied` naming it (see `DINGTALK_ROUTE_SCOPES`). Default none.
   */
  readonly missingScopes?: readonly string[];
  /** When given, longer streaming `content` answers 400 `param.stream.content`. Default: no limit. */
  readonly maxStreamingContentChars?: number;
  /**
   * Metered calls the organisation may make (every route but the token); past it every call answers
   * 403 `Forbidden.AccessDenied.ApiCountLimitForOrg` (standard organisations: 5 000 a month,
   * https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server).
   * Default: unlimited.
   */
  readonly monthlyQuota?: number;
  /**
   * Most bytes a file sent to `POST /media/upload` may have; larger ones answer errcode 40006.
   * Default 20 MB (community sources, unconfirmed).
   */
  readonly maxMediaBytes?: number;
  /** What the template does with the data: streaming switch, failed state, blank-card size (see `DingTalkTemplateModel`). */
  readonly template?: DingTalkTemplateModel;
  /** The model of particular templates by `cardTemplateId` (e.g. one without the streaming switch); others use {@link template}. */
  readonly templateModels?: Readonly<Record<string, DingTalkTemplateModel>>;
}

/** A rule that makes deliveries report `deliverResults[].success: false` inside an HTTP 200. */
export interface DingTalkDeliveryFault {
  /** Only deliveries of this card. */
  readonly outTrackId?: string;
  /** The n-th delivery attempt (createAndDeliver and deliver together, 1-based), per card when `outTrackId` is set. */
  readonly nth?: number;
  /** `[fromMs, toMs)` since the delivery injector's origin. */
  readonly window?: { readonly fromMs: number; readonly toMs: number };
  readonly times?: number;
  /** `errorMsg` of the failed result; default `SYSTEM_ERROR`. */
  readonly errorMsg?: string;
}

/**
 * One call as the emulator answered it. The fields of the common `CallRecord`, except that `code` is
 * DingTalk's string code of a rejected call (`param.cardNotExist`…), absent on success.
 */
export interface DingTalkCallRecord {
  /** 1-based position among every call of this emulator. */
  readonly seq: number;
  /** Epoch ms (emulator clock) when the call arrived and when it was answered. */
  readonly receivedAt?: number;
  readonly at: number;
  readonly route: DingTalkRoute;
  /** `outTrackId` of card calls, `appKey` of token calls. */
  readonly key?: string;
  readonly outcome: 'accepted' | 'rejected';
  readonly status: number;
  readonly code?: string;
  /** The request body, `appSecret` redacted. */
  readonly request?: unknown;
  /** The card after an accepted call. */
  readonly card?: DingTalkCardInstance;
  /** Id of the fault rule that answered. */
  readonly faultId?: string;
}

/** Read-back of one card: its current data and state plus every call about it. */
export interface DingTalkCardSnapshot extends DingTalkCardInstance {
  /** Every call about this card (createAndDeliver, deliver, updates, streaming), accepted and rejected, in order. */
  readonly history: readonly DingTalkCallRecord[];
  /** Highest number of requests about this card processed at the same time. */
  readonly maxConcurrentCalls: number;
  /** What a user sees under the emulator's template model. */
  readonly display: DingTalkCardDisplay;
}

/** A change of a card, for live previews and tests waiting on a card. */
export interface DingTalkCardChange {
  readonly platform: 'dingtalk';
  readonly kind: DingTalkChangeKind;
  /** Epoch ms (emulator clock). */
  readonly at: number;
  readonly card: DingTalkCardSnapshot;
}

/** An emulator without a server: mount `app` yourself (e.g. beside the Feishu one) or use `startDingTalkEmulator`. */
export interface DingTalkEmulatorCore {
  /** The Hono app serving `/v1.0/...`. */
  readonly app: Hono;
  readonly clock: Clock;
  readonly apps: readonly DingTalkAppCredentials[];
  /**
   * Fault rules on the routes of `DINGTALK_ROUTE_NAMES` (`card.update` = `PUT /v1.0/card/instances`…);
   * the key of card calls is the body's `outTrackId` (the `appKey` for `oauth2.accessToken`). An error
   * `respond` body without `requestid` gets one. Windows are measured from `faults.origin`.
   */
  readonly faults: FaultInjector;
  /** Delivery failures (route `card.delivery`, key `outTrackId`); add them with {@link failDelivery}. */
  readonly deliveryFaults: FaultInjector;
  /** Makes matching deliveries answer `deliverResults[].success: false` in a 200; returns the rule id. */
  failDelivery(rule?: DingTalkDeliveryFault): string;
  /**
   * Makes matching instance updates (`card.update`) or streaming calls answer HTTP 200
   * `{"success":true,"result":false}` without applying anything; returns the rule id.
   */
  answerResultFalse(rule?: { route?: 'card.update' | 'card.streaming'; outTrackId?: string; times?: number }): string;
  /** Metered calls counted against `monthlyQuota` so far. */
  meteredCalls(): number;
  /** Moves the origin of both fault injectors (default: now), e.g. to the start of a scripted run. */
  setFaultOrigin(epochMs?: number): void;
  /** Revokes one access token, or all: later calls with it answer 400 `InvalidAuthentication`. Returns how many. */
  revokeTokens(token?: string): number;
  /** Tokens currently valid. */
  tokens(): Array<{ token: string; appKey: string; expiresAt: number }>;
  /** Every card, in creation order. */
  cards(): DingTalkCardSnapshot[];
  /** Robot messages (`groupMessages/send`, `oToMessages/batchSend`) accepted so far, oldest first. */
  robotMessages(): DingTalkRobotMessage[];
  /** Files uploaded to the old-style `POST /media/upload` (what `sampleFile` messages name), oldest first. */
  mediaFiles(): DingTalkMediaFile[];
  /** One card, or undefined. */
  card(outTrackId: string): DingTalkCardSnapshot | undefined;
  /** Every call (accepted and rejected) in arrival order, optionally filtered. */
  calls(filter?: { route?: DingTalkRoute; outTrackId?: string; outcome?: 'accepted' | 'rejected' }): DingTalkCallRecord[];
  /** Calls / accepted / rejected per route. */
  counts(): Record<string, RouteCounts>;
  /** Subscribes to card changes; returns the unsubscribe function. */
  onChange(listener: (change: DingTalkCardChange) => void): () => void;
  /**
   * Clicks a button of a card's controls (progresscard's `pcControls` variable) as user
   * `click.user`: pushes the card callback over Stream mode and applies the answer's card data.
   * Without a Stream-mode client subscribed to card callbacks nothing is sent
   * (`error: 'callbacks-not-configured'`). @throws Error for an unknown outTrackId.
   */
  click(click: DingTalkClick): Promise<DingTalkCallbackResult>;
  /** Pushes an earlier callback again with the same messageId, as the platform re-pushes an unanswered one. */
  retryCallback(messageId: string): Promise<DingTalkCallbackResult>;
  /** Closes the Stream-mode server and its connections (done by `close()` of a started emulator). */
  closeStream(): Promise<void>;
}

/** A running DingTalk emulator. */
export interface DingTalkEmulator extends DingTalkEmulatorCore {
  /** E.g. `http://127.0.0.1:43121`: the plugin's `baseUrl`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Stops the server (idempotent). */
  close(): Promise<void>;
}
