import type { Clock, FaultResponse, InstalledFault, LimitWindow } from '../common/index.js';
import type { DingTalkCardSnapshot } from './card-store.js';
import type { DingTalkChangeKind, DingTalkRoute } from './handlers.js';
import type { DingTalkAppCredentials } from './tokens.js';

/** Options of `startDingTalkEmulator`. Every field is optional. */
export interface DingTalkEmulatorOptions {
  /** Listen host, default `127.0.0.1`. */
  readonly host?: string;
  /** Listen port, default `0` (a free port). */
  readonly port?: number;
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
  /** When given, longer streaming `content` answers 400 `param.stream.content`. Default: no limit. */
  readonly maxStreamingContentChars?: number;
}

/**
 * A fault rule on a DingTalk route. Matching (route, `outTrackId` key, n-th call, time window, times)
 * is the common `FaultRule`'s; an error `respond` body without `requestid` gets one added.
 */
export interface DingTalkFaultRule {
  readonly route: DingTalkRoute;
  /** Only calls about this card (`outTrackId`; `appKey` on the token route). */
  readonly outTrackId?: string;
  /** The n-th call (1-based) of the route, per card when `outTrackId` or `perCard` is set. */
  readonly nth?: number;
  readonly perCard?: boolean;
  /** `[fromMs, toMs)` in ms since the fault origin (see `setFaultOrigin`). */
  readonly window?: { readonly fromMs: number; readonly toMs: number };
  /** Stop after this many matches. */
  readonly times?: number;
  /** The answer given instead of the real one, e.g. `{ status: 403, body: { code: 'Forbidden.AccessDenied.QpsLimitForAppkeyAndApi' } }`. */
  readonly respond?: FaultResponse;
  /** Added real-time delay in ms before the call is handled. */
  readonly latencyMs?: number;
  readonly label?: string;
}

/** A rule that makes deliveries report `deliverResults[].success: false` inside an HTTP 200. */
export interface DingTalkDeliveryFault {
  /** Only deliveries of this card. */
  readonly outTrackId?: string;
  /** The n-th delivery attempt (createAndDeliver and deliver together, 1-based), per card when `outTrackId` is set. */
  readonly nth?: number;
  readonly window?: { readonly fromMs: number; readonly toMs: number };
  readonly times?: number;
  /** `errorMsg` of the failed result; default `SYSTEM_ERROR`. */
  readonly errorMsg?: string;
}

/** One call as the emulator answered it. */
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
  /** Platform error code of a rejected call (`param.cardNotExist`…); absent when accepted. */
  readonly code?: string;
  /** The request body, `appSecret` redacted. */
  readonly request?: unknown;
  /** The card after an accepted call. */
  readonly card?: DingTalkCardSnapshot;
  /** Id of the fault rule that answered. */
  readonly faultId?: string;
}

/** A change of a card, for live previews and tests waiting on a card. */
export interface DingTalkCardChange {
  readonly kind: DingTalkChangeKind;
  readonly card: DingTalkCardSnapshot;
  /** Epoch ms (emulator clock). */
  readonly at: number;
}

/** A running DingTalk emulator. */
export interface DingTalkEmulator {
  /** E.g. `http://127.0.0.1:43121`; use as the plugin's `baseUrl`. */
  readonly baseUrl: string;
  readonly port: number;
  readonly clock: Clock;
  /** Stops the server (idempotent). */
  close(): Promise<void>;

  // test controls
  /** Installs a fault rule; returns its id. @throws FaultRuleError naming the bad field. */
  injectFault(rule: DingTalkFaultRule): string;
  /** Makes matching deliveries answer `success: false`; returns the rule id. */
  failDelivery(rule?: DingTalkDeliveryFault): string;
  /** Removes a fault or delivery-fault rule; false when unknown. */
  removeFault(id: string): boolean;
  /** Installed rules with hit counts. */
  faults(): InstalledFault[];
  /** Time windows of fault rules are measured from this epoch ms (default: start or last reset). */
  setFaultOrigin(epochMs?: number): void;
  /** Revokes one access token, or all; the next call with it answers 400 `InvalidAuthentication`. */
  revokeTokens(token?: string): number;
  /** Forgets cards, calls, faults, counters, rate-limit state and tokens. */
  reset(): void;

  // read-back
  /** The card's current data and state. */
  card(outTrackId: string): DingTalkCardSnapshot | undefined;
  /** Every card, in creation order. */
  cards(): DingTalkCardSnapshot[];
  /** Calls in arrival order, optionally filtered. */
  calls(filter?: { route?: DingTalkRoute; outTrackId?: string; outcome?: 'accepted' | 'rejected' }): DingTalkCallRecord[];
  /** Every call about one card (accepted and rejected), oldest first. */
  cardHistory(outTrackId: string): DingTalkCallRecord[];
  /** The most requests about one card that were processed at the same time. */
  maxInFlight(outTrackId: string): number;
  /** Calls a listener on every accepted card change; returns the unsubscribe function. */
  onChange(listener: (change: DingTalkCardChange) => void): () => void;
}
