import type { CardImage } from '../card/images.js';
import type { CardView } from '../card/view.js';
import type { ClickHandler } from './click-contract.js';
import type { StandardSchemaV1 } from '../shared/standard-schema.js';
import type { Locale } from '../card/view.js';

export type { ClickHandler, ClickOutcome, ClickReply, ControlClick } from './click-contract.js';
export * from './stream-contract.js';
export * from './budget-contract.js';
export * from './feature-switches.js';
import type { BudgetKey, BudgetedCall, ChannelSettings, ExtraCallKind } from './budget-contract.js';
import type { FeatureSwitches } from './feature-switches.js';
export type { MessageRef, ReplyToMessage, Requester } from './message-types.js';
import type { StreamingMode } from './stream-contract.js';
import type { MessageRef, ReplyToMessage, Requester } from './message-types.js';

/**
 * The channel plugin contract. A plugin is data plus two small objects: a renderer (view → payload)
 * and a transport (send / update over the platform API). Retries, budgets, coalescing and the
 * final-delivery rules live once, in the core; the transport only says how a call failed.
 */

/** Turns a view into a platform payload. Must be pure and deterministic: equal views → equal payloads. */
export interface CardRenderer<Payload> {
  /** The rich card. */
  render(view: CardView): Payload;
  /** A plain-text card used after the platform rejected the rich one. */
  renderFallback(view: CardView): Payload;
  /**
   * Follow-up messages for content that did not fit the main card: parts 2..n, in order, each sent
   * as its own message replying to the main one ({@link SendRequest.replyTo}). Returns an empty
   * list when everything fits (and may be left out when a channel never needs it). Pure and
   * deterministic like {@link render}: an unchanged part is not sent again.
   */
  renderContinuations?(view: CardView): readonly Payload[];
}


/**
 * Budget for the calls a transport makes besides the one it was asked for (an image upload before a
 * card that shows the image, a reaction on the card): they draw from the channel's budget like
 * sends and updates, and count as calls of the card (the quota footer).
 */
export interface ExtraCalls {
  /** Resolves when one more call of `kind` may be made now (it is counted then). Never rejects. */
  acquire(kind: ExtraCallKind): Promise<void>;
  /**
   * Reports `count` (default 1) platform requests the operation made besides the one the core
   * counts for it and those acquired above: the second step of a two-step send (a CardKit entity
   * create, a DingTalk streaming PUT). They count toward the card's calls (quota footer,
   * `runCallCap`, `FinalDelivery.calls`). See `countingPlatformCalls` in the kit.
   */
  spent?(count?: number): void;
}

/** Arguments of {@link CardTransport.send}. */
export interface SendRequest<Payload, Target> {
  /** Where to send; `undefined` means the plugin's configured target. */
  readonly target: Target | undefined;
  readonly payload: Payload;
  /**
   * Stable per logical message: a retried send with the same key must never create a second
   * message (Feishu `uuid`, DingTalk `outTrackId`).
   */
  readonly idempotencyKey: string;
  /** True when this message replaces one that is gone (recalled, deleted, too old). */
  readonly replacing: boolean;
  /**
   * With {@link replacing}: the card's earlier main message this one replaces (recalled, deleted,
   * refusing updates), so a transport can tidy it (e.g. remove a reaction) once the card is final.
   */
  readonly replaces?: MessageRef;
  /**
   * Set for a continuation part (see {@link CardRenderer.renderContinuations}): the card's main
   * message, which this part is sent as a reply to.
   */
  readonly replyTo?: MessageRef;
  /**
   * The message that triggered the run, when the card was opened with `replyTo`: the card's main
   * message is sent as a reply to it (in its thread when `inThread`). Not set for continuation
   * parts, which reply to the card's main message ({@link replyTo}). A transport without replies
   * sends a normal message.
   */
  readonly replyToMessage?: ReplyToMessage;
  /** True when this message carries the run's terminal state (a final-only card, a fresh final). */
  readonly final?: boolean;
  /** The images the view shows (`CardView.images`), for a transport that uploads them (see {@link ExtraCalls}). */
  readonly images?: readonly CardImage[];
  /** Budget for calls the transport makes besides this send (image uploads, reactions). */
  readonly extraCalls?: ExtraCalls;
  /**
   * How long after a call failed without a clear answer (a timeout) the platform may still apply
   * it, in ms (`RetrySettings.lateApplyWindowMs`, default 10 000). A transport whose platform has
   * no idempotency key (Slack) keeps looking for late copies of this send at least that long.
   */
  readonly lateApplyWindowMs?: number;
}

/** Arguments of {@link CardTransport.update}. */
export interface UpdateRequest<Payload> {
  readonly message: MessageRef;
  readonly payload: Payload;
  /** True for the run's terminal state (a transport may finalize a stream with it). */
  readonly final: boolean;
  /** The images the view shows (`CardView.images`), for a transport that uploads them. */
  readonly images?: readonly CardImage[];
  /** Budget for calls the transport makes besides this update (image uploads, removing a reaction). */
  readonly extraCalls?: ExtraCalls;
}

/** Arguments of {@link CardTransport.reply}: a short plain message replying to a card. */
export interface ReplyRequest<Target = unknown> {
  /** The card's main message, which this message replies to. */
  readonly message: MessageRef;
  /** The card's target as given to `open()` (undefined = the plugin's configured target). */
  readonly target: Target | undefined;
  /** Plain text, one line. */
  readonly text: string;
  /** Mention this person, when the platform can. */
  readonly mention?: Requester;
  /** Stable per reply: a retried call with the same key must never post a second message. */
  readonly idempotencyKey: string;
  /**
   * True when later messages pushed the card up the chat: the reply should show at the bottom of
   * the chat, not only inside a thread (Slack `reply_broadcast`; a reply elsewhere already does).
   */
  readonly broadcast?: boolean;
}

/** Arguments of {@link CardTransport.attachFile}. */
export interface AttachFileRequest<Target = unknown> {
  /** The card's main message once sent (the file is sent as a reply to it), else undefined. */
  readonly message: MessageRef | undefined;
  /** The card's target as given to `open()` (undefined = the plugin's configured target). */
  readonly target: Target | undefined;
  /** The path the agent gave. */
  readonly path: string;
  /** The file name to show. */
  readonly name: string;
  /** Stable per file of a card: a retried call with the same key must not post the file twice. */
  readonly idempotencyKey: string;
}

/** What {@link CardTransport.attachFile} resolves to. */
export interface AttachedFile {
  /** A link to the file in the chat, when the platform gives one (shown on the card). */
  readonly url?: string;
}

/** Arguments of {@link CardTransport.messagesAfter}. */
export interface MessagesAfterRequest<Target = unknown> {
  /** The card's main message. */
  readonly message: MessageRef;
  /** The card's target as given to `open()` (undefined = the plugin's configured target). */
  readonly target: Target | undefined;
  /** Counting may stop here: the answer is `min(actual, atMost)`. */
  readonly atMost: number;
}

/**
 * Sends and updates cards on one platform. Methods throw on failure; {@link classify} says how.
 * Every call must settle: give HTTP requests a timeout (the Feishu and DingTalk plugins use 10 s).
 * The core keeps one request in flight per card, so a call that never returns holds its card
 * (and `shutdown()`) until it does.
 */
export interface CardTransport<Payload, Target = unknown> {
  send(request: SendRequest<Payload, Target>): Promise<MessageRef>;
  update(request: UpdateRequest<Payload>): Promise<void>;
  /**
   * Posts a short plain message replying to a card (the completion ping: card edits notify no
   * one, a new message does). Optional: a channel without it gets no ping. Throws like `send`.
   */
  reply?(request: ReplyRequest<Target>): Promise<MessageRef>;
  /**
   * How many messages the chat holds after the card's main message (`request.message`), counted up
   * to `atMost`: other people's and other cards' messages, not the card's own continuation parts or
   * replies. The completion ping asks it when the final lands, to tell a card that later messages
   * have pushed up the chat (see `CompletionPingSwitch.pushedUpBy`). Optional: a channel that
   * cannot read its chat (no history API for bots) leaves it out and pings by run time only.
   * Throws like `send`; the ping then treats the position as unknown.
   */
  messagesAfter?(request: MessagesAfterRequest<Target>): Promise<number>;
  /**
   * Uploads a file the agent produced (`attachment` event) into the card's chat, as a reply to the
   * card when it has been sent. Read the file with the kit's `readAttachmentFile`, inside the same
   * opt-in roots as local images, so no other path is ever read. Optional: without it the final
   * card names the file as not uploaded. Throw an Error whose message says why it was refused
   * (outside the roots, too large, the platform's refusal): the card shows that message.
   */
  attachFile?(request: AttachFileRequest<Target>): Promise<AttachedFile>;
  /** Drops cached credentials so the next call fetches new ones (called once per failure streak on an `auth` failure). */
  refreshAuth?(): Promise<void>;
  /** Maps anything `send`/`update` threw to a failure kind. Must not throw. */
  classify(error: unknown): CallFailure;
  /**
   * Platform requests one operation usually takes (default 1 each), for the quota footer of a
   * final card (counted before its final update is made) and `progresscard plan`: e.g. Feishu
   * CardKit `{ send: 2, update: 1, final: 2 }` (entity create + message send; update + settings).
   * The calls actually made are reported through `ExtraCalls.spent`.
   */
  readonly callsPerOperation?: { readonly send: number; readonly update: number; readonly final: number };
  /**
   * Registers the core's listener for {@link TransportNotice}s: lasting changes the transport made
   * on its own that the operator should hear about once (a streaming route refused for a missing
   * scope, so the channel now uses its non-streaming mode). The core logs each as one warning
   * naming the channel. Optional.
   */
  onNotice?(listener: (notice: TransportNotice) => void): void;
}

/**
 * A lasting change a transport made on its own, reported once (see {@link CardTransport.onNotice}):
 * - `downgraded`: a route lacks its permission `scope` (e.g. Feishu CardKit without
 *   `cardkit:card:write`, DingTalk streaming without `Card.Streaming.Write`), so the transport uses
 *   its non-streaming mode for the rest of the process; every card is still shown and completed.
 */
export interface TransportNotice {
  readonly kind: 'downgraded';
  /** The permission scope the platform named, if any. */
  readonly scope?: string;
  /** One line for the operator: what was refused and what the channel does instead. */
  readonly message: string;
}

/**
 * How a platform call failed:
 * - `rate-limited`: try again after `retryAfterMs`; `scope: 'channel'` pauses every card of the channel;
 *   `scope: 'method'`: the limit of the failed call's own platform method (Slack counts "per API method
 *   per app per workspace", https://docs.slack.dev/apis/web-api/rate-limits): the budget keys that call
 *   drew from are paused until then, for every card, and the card's calls of other methods go on at
 *   once (a stream start turned away does not hold the card's post). Absent or `card`: the card waits.
 * - `gone`: the message can no longer be edited (recalled, deleted, too old); send a fresh card next time.
 * - `rejected`: the payload was refused; degrade to the plain-text render.
 * - `auth`: credentials invalid or expired (a token endpoint refusing the app secret too); refresh
 *   once and retry at once; refused again, the channel stops its progressive updates and each final
 *   gets one try (one error log names the channel).
 * - `transient`: 5xx, timeouts, network errors; retry with backoff.
 * - `quota`: the platform's call quota for a long period is spent (e.g. DingTalk's monthly quota,
 *   403 `Forbidden.AccessDenied.ApiCountLimitForOrg`); every later call would fail the same way and
 *   may still be metered, so the channel stops its progressive updates and each final gets one try.
 * - `target`: the card's target cannot be reached and retrying cannot change that (Slack
 *   `channel_not_found` / `not_in_channel`, Feishu 230002 bot not in the chat / 230001 invalid
 *   receive_id, DingTalk's invalid openConversationId); that card's progressive updates stop and its
 *   final gets one try, other cards of the channel go on. `detail` should name the target.
 * - `stream-ended`: a native stream no longer accepts calls (too old, idle too long: Slack
 *   `message_not_in_streaming_state`); the core goes on in a fresh stream with what the ended one
 *   did not take. Outside a stream it is handled like `gone`.
 * - `stopped-by-user`: the user pressed the platform's own Stop on the message (Slack
 *   `stopped_by_user`, Teams 403 "Content stream was canceled by user"): the run is cancelled, the
 *   card's `onStop` handler is called, and nothing more is sent for the card (no fresh message).
 * - `missing-scope`: the app lacks a permission scope this operation needs (Feishu 99991672 "One of
 *   the following scopes is required", DingTalk 403 `AccessTokenPermissionDenied`, Slack
 *   `missing_scope`); every later call of the same operation would be refused alike until an admin
 *   grants it. The core stops that operation (`send`, `update` or `reply`) for the whole channel
 *   with one error naming `scope`; the other operations go on, and each card still ends with a
 *   final through what works (an update refused: the final goes out as a fresh message). A
 *   transport whose streaming route lacks its scope should switch to its non-streaming mode itself
 *   rather than throw this.
 */
export type CallFailure =
  | { readonly kind: 'rate-limited'; readonly retryAfterMs?: number; readonly scope?: 'card' | 'channel' | 'method'; readonly detail: string }
  | { readonly kind: 'gone'; readonly detail: string }
  | { readonly kind: 'rejected'; readonly detail: string }
  | { readonly kind: 'auth'; readonly detail: string }
  | { readonly kind: 'transient'; readonly detail: string }
  | { readonly kind: 'quota'; readonly detail: string }
  | { readonly kind: 'target'; readonly detail: string }
  | { readonly kind: 'stream-ended'; readonly detail: string }
  | { readonly kind: 'stopped-by-user'; readonly detail: string }
  | {
      readonly kind: 'missing-scope';
      /** The permission scope the platform named (`cardkit:card:write`, `Card.Streaming.Write`, `chat:write`), or undefined when it named none. */
      readonly scope?: string;
      readonly detail: string;
    };

/** The failure kinds, for tables and metrics. */
export type CallFailureKind = CallFailure['kind'];

/**
 * How a plugin receives clicks on card controls (buttons drawn from `CardView.controls`): an HTTP
 * callback endpoint, a long connection… The plugin checks that the platform sent each callback
 * (signature, token), maps it to a `ControlClick`, calls `onClick` and turns the `ClickReply`
 * into the platform's callback response (a toast; the card updated in place where the platform
 * allows). The core starts it when a card first shows a control, and stops it on `shutdown()`.
 */
export interface ChannelInteraction {
  /** Starts listening. @throws when the listener cannot start (e.g. the port is taken). */
  start(onClick: ClickHandler): Promise<void>;
  /**
   * Weaknesses of the listener's setup the operator should hear about (e.g. HTTP callbacks that
   * check no token or signature, so anyone reaching the port can click): logged once as warnings
   * when it starts, and shown by `progresscard doctor`.
   */
  readonly warnings?: readonly string[];
  /** Stops listening; resolves when closed. */
  stop(): Promise<void>;
}

/**
 * A channel plugin: what `createProgressCards({ channels: [...] })` takes.
 * Build one with a factory such as `feishu(config)`; the factory validates config with
 * `configSchema` and folds config overrides (tick ms, budget…) into `settings`.
 */
export interface ChannelPlugin<Payload = unknown, Target = unknown> {
  /** Channel id, lowercase letters/digits/dashes (`feishu`, `dingtalk`); also names the env prefix. */
  readonly id: string;
  /**
   * Schema of the plugin's config (for docs and tooling): any Standard Schema
   * ({@link StandardSchemaV1}, https://standardschema.dev) — zod 3.24+ or 4, Valibot, ArkType, or a
   * hand-written `{ '~standard': { version: 1, vendor, validate } }`. The core needs no particular
   * validator; `parseChannelConfig` validates with it.
   */
  readonly configSchema: StandardSchemaV1;
  /** The plugin's own defaults. */
  readonly defaults: ChannelSettings;
  /**
   * Key of the channel's API budget in the `BudgetStore` (default the channel id). Use the
   * identity the platform counts calls by (e.g. `feishu:<app_id>`), so that compositions of one
   * app share its budget and different apps do not.
   */
  readonly budgetKey?: string;
  /**
   * The budgets one call draws from, as the platform documents its limits: e.g. per API route of
   * the app, per receiving chat for sends, per message for updates. Pure and cheap (asked before
   * every call, so keys and windows may follow limits the platform announces at run time: return
   * what `AnnouncedLimits.keysFor` gives). `settings` are the channel's resolved settings (their
   * `budget` is the route windows after config overrides). Without it: one key, {@link budgetKey} with `settings.budget`.
   * The first key is the channel-wide one: a rate limit with `scope: 'channel'` pauses it.
   */
  budgetKeys?(call: BudgetedCall<Target>, settings: ChannelSettings): readonly BudgetKey[];
  /** Overrides from the user's config; env (`<ID>_CARD_TOOL_TICK_MS`) overrides these in turn. */
  readonly overrides?: Partial<ChannelSettings>;
  /**
   * The channel's feature switches, resolved from its config and env by `resolveFeatureSwitches`
   * (progressive updates, card per run/turn, completion ping, call cap; the renderer applies the
   * footer, folding and language ones). Absent = every switch at its default.
   */
  readonly switches?: FeatureSwitches;
  /**
   * The card language when neither the run nor the channel's `locale` switch sets one (default:
   * `CHANNEL_DEFAULT_LOCALES` by `id`, `zh-CN` for an id not listed).
   */
  readonly defaultLocale?: Locale;
  /**
   * What the operator should check when the platform refuses the channel's credentials even right
   * after a refresh, worded for the channel: e.g. `the app id and secret (FEISHU_APP_ID,
   * FEISHU_APP_SECRET)`, `the bot token (SLACK_BOT_TOKEN)`. Shown in the one error log that stops
   * the channel. Default `the channel's credentials`.
   */
  readonly credentials?: string;
  /**
   * A stable, non-secret id of the app (bot) behind this plugin instance, the one whose messages
   * only it may edit: e.g. the Feishu `app_id`, the Slack bot user id. Stored with each card, so
   * that after a deploy changed an app pool (`appPool`: apps are named by position) a card is
   * continued on its message only by the same app, and as a fresh message otherwise. Absent: the
   * app is known by its channel id only.
   */
  readonly appIdentity?: string;
  readonly renderer: CardRenderer<Payload>;
  readonly transport: CardTransport<Payload, Target>;
  /**
   * The platform's native streaming, when the channel has it (see {@link StreamingMode}). Absent:
   * every card uses `send` + `update`.
   */
  readonly streaming?: StreamingMode<Target>;
  /**
   * Card callbacks, when the channel is configured for them. Without it, cards still show open
   * questions, with the text reply to type instead of buttons (the renderer's choice).
   */
  readonly interaction?: ChannelInteraction;
}
