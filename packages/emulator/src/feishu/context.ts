import type { ChangeFeed } from '../common/changes.js';
import type { Clock } from '../common/clock.js';
import type { FaultInjector } from '../common/faults.js';
import type { CallHistory } from '../common/history.js';
import type { InFlightTracker } from '../common/in-flight.js';
import type { SlidingWindowLimiter } from '../common/rate-limiter.js';
import type { CardEntityStore } from './card-entities.js';
import type { MessageStore } from './messages.js';
import type { TokenStore } from './tokens.js';
import type { FeishuLimits, FeishuMessageChange, StoredImage, StoredReaction } from './types.js';

/** Everything the Feishu routes share. One per emulator. */
export interface FeishuContext {
  readonly clock: Clock;
  readonly limits: FeishuLimits;
  readonly tenantKey: string;
  readonly authErrorStatus: 400 | 401;
  /** Scopes the app lacks (see `FeishuEmulatorOptions.missingScopes`). */
  readonly missingScopes: ReadonlySet<string>;
  readonly tokens: TokenStore;
  readonly messages: MessageStore;
  readonly entities: CardEntityStore;
  readonly faults: FaultInjector;
  readonly history: CallHistory;
  readonly inFlight: InFlightTracker;
  readonly changes: ChangeFeed<FeishuMessageChange>;
  /** Keyed by `<route>:<appId>`. */
  readonly appLimiter: SlidingWindowLimiter;
  /** Keyed by message id. */
  readonly messageLimiter: SlidingWindowLimiter;
  /** CardKit operations per card entity (10/s), keyed by card_id. */
  readonly cardLimiter: SlidingWindowLimiter;
  /** Keyed by chat id. */
  readonly chatLimiter: SlidingWindowLimiter;
  /** Uploaded images by image_key. */
  readonly images: Map<string, StoredImage>;
  /** Reactions on messages by reaction_id. */
  readonly reactions: Map<string, StoredReaction>;
  /** p2p chat id per receiver (`<receive_id_type>:<receive_id>`). */
  readonly p2pChats: Map<string, string>;
  /** Emits a change event for a message. */
  notify(kind: FeishuMessageChange['kind'], messageId: string): void;
}
