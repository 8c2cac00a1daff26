import type { Clock } from '../common/clock.js';
import type { CallRecord } from '../common/history.js';
import type { LimitWindow } from '../common/rate-limiter.js';
import type { CardLimits } from './card-rules.js';
import type { MessageIdentity, MessageState } from './messages.js';
import type { FeishuApp } from './tokens.js';

/**
 * Documented limits the Feishu emulator enforces: sending
 * (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/create), patching
 * (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/patch), card JSON
 * (https://open.feishu.cn/document/feishu-cards/card-json-v2-structure) and frequency control
 * (https://open.feishu.cn/document/server-docs/api-call-guide/frequency-control).
 */
export interface FeishuLimits extends CardLimits {
  /** Per API route and app: 50/s and 1000/min → HTTP 429, code 99991400, `x-ogw-ratelimit-*` headers. */
  readonly appWindows: readonly LimitWindow[];
  /** PATCH per message: 5/s → HTTP 400, code 230020. */
  readonly messageUpdateWindows: readonly LimitWindow[];
  /** Sends (create + reply) per chat: 5/s, shared by all bots → HTTP 400, code 230020. */
  readonly chatSendWindows: readonly LimitWindow[];
  /** Messages can be patched for 14 days (ms) → 230031. */
  readonly editWindowMs: number;
  /**
   * A bot recalls its own messages for this long (ms; the tenant admin's setting, default 24 hours)
   * → 230009 after (https://open.feishu.cn/document/server-docs/im-v1/message/delete).
   */
  readonly recallWindowMs: number;
  /** Same `uuid` within 1 h (ms) → the same message. */
  readonly uuidWindowMs: number;
  /**
   * CardKit operations per card entity: 10/s ("对于单个卡片实体…频率上限为 10 次/秒",
   * https://open.larkoffice.com/document/uAjLw4CM/ukzMukzMukzM/feishu-cards/streaming-updates-openapi-overview)
   * → 230020 (the code is UNCONFIRMED).
   */
  readonly cardOperationWindows: readonly LimitWindow[];
  /**
   * Streaming mode closes itself this long (ms) after it was last opened; default 10 min (UNCONFIRMED
   * on an official page; openclaw/openclaw#150634 quotes "流式更新模式将在距上次开启 10 分钟后自动关闭").
   */
  readonly streamingWindowMs: number;
  /** A card entity can be operated for 14 days (ms) → 200750 (card create doc). */
  readonly entityLifetimeMs: number;
}

/** Options of {@link createFeishuEmulator} / {@link startFeishuEmulator}. */
export interface FeishuEmulatorOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  /** Host names accepted in `Host`/`Origin` besides loopback and the listen host (see `ListenOptions.allowedHosts`). */
  readonly allowedHosts?: readonly string[];
  /** Emulator clock (epoch ms); default `Date.now`. */
  readonly clock?: Clock;
  /** Self-built apps that may fetch tokens. Default: one app, see {@link DEFAULT_FEISHU_APP}. */
  readonly apps?: readonly FeishuApp[];
  /** `sender.tenant_key` in message data. */
  readonly tenantKey?: string;
  /** Lifetime of a tenant_access_token in seconds (default 7200). The SDK refetches 3 min early. */
  readonly tokenTtlSeconds?: number;
  /** HTTP status of 99991661/99991663 answers (UNCONFIRMED upstream; default 400). */
  readonly authErrorStatus?: 400 | 401;
  /** Override documented limits, e.g. to make tests cheaper. */
  readonly limits?: Partial<FeishuLimits>;
  /**
   * Permission scopes the app was not granted, e.g. `['cardkit:card:write']`: every route that
   * accepts only missing scopes answers 99991672 naming them (see `FEISHU_ROUTE_SCOPES`). Default none.
   */
  readonly missingScopes?: readonly string[];
  /**
   * The long connection's client config (the endpoint's `ClientConfig`, repeated in every pong), in
   * seconds: ping interval (default 120), reconnect interval (120) and up to how much random delay
   * before a reconnect (30); tests shorten them to see the SDK reconnect. `maxConnections`: how many
   * connections one app may hold (default 50, as documented); a request beyond is refused with
   * code 1000040350.
   */
  readonly longConnection?: {
    readonly pingIntervalSeconds?: number;
    readonly reconnectIntervalSeconds?: number;
    readonly reconnectJitterSeconds?: number;
    readonly maxConnections?: number;
  };
}

/**
 * The app an emulator accepts when no `apps` are given. Its id has the form the SDK's long
 * connection (`WSClient`) insists on: `cli_` and 16 hex digits.
 */
export const DEFAULT_FEISHU_APP: FeishuApp = { appId: 'cli_e000000000000001', appSecret: 'emulator-secret' };

/** A message as read back from the emulator (a copy; changing it changes nothing). */
export interface FeishuMessageSnapshot extends MessageIdentity {
  readonly state: MessageState;
  /** Current content string. */
  readonly content: string;
  /** Current card, parsed (interactive messages). */
  readonly card?: Record<string, unknown>;
  /** Live `<at …>` mentions in the current content. */
  readonly mentions: readonly string[];
  /** Epoch ms (emulator clock; moved back by `age`). */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Accepted patches (and, for a card entity sent by reference, the entity's accepted operations). */
  readonly updates: number;
  /** The CardKit card entity the message was sent by reference; `card` is its current card. */
  readonly cardId?: string;
  /** Every call about this message (send/reply that created it, patches, its card entity's operations), accepted and rejected, in order. */
  readonly history: readonly CallRecord[];
  /** Highest number of requests about this message processed at the same time. */
  readonly maxConcurrentCalls: number;
}

/** What happened to a message. */
export type FeishuChangeKind = 'created' | 'updated' | 'recalled' | 'deleted' | 'aged';

/** Emitted whenever a message changes (for the CLI's live preview, or tests waiting on a card). */
export interface FeishuMessageChange {
  readonly platform: 'feishu';
  readonly kind: FeishuChangeKind;
  /** Epoch ms, emulator clock. */
  readonly at: number;
  readonly message: FeishuMessageSnapshot;
}

/** An uploaded image as the emulator keeps it. */
export interface StoredImage {
  readonly imageKey: string;
  /** The app that uploaded it; only its cards may show it. */
  readonly appId: string;
  readonly imageType: 'message' | 'avatar';
  readonly size: number;
  readonly contentType: string;
  readonly uploadedAt: number;
}

/** A file uploaded with `POST /open-apis/im/v1/files`. */
export interface StoredFile {
  readonly fileKey: string;
  /** The app that uploaded it; only its messages may send it. */
  readonly appId: string;
  readonly fileType: string;
  readonly fileName: string;
  readonly bytes: Uint8Array;
  readonly uploadedAt: number;
}

/** A reaction on a message. */
export interface StoredReaction {
  readonly reactionId: string;
  readonly messageId: string;
  readonly emojiType: string;
  /** The app that added it. */
  readonly appId: string;
  readonly at: number;
}
