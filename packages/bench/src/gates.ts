import { AnnouncedLimits, type BudgetKey, type BudgetedCall, type ChannelSettings } from '@progresscard/core/plugin';
import { DEFAULT_DISCORD_LIMITS, DEFAULT_SLACK_LIMITS, DEFAULT_TEAMS_LIMITS, DEFAULT_TELEGRAM_LIMITS, DiscordBuckets, SlidingWindowLimiter, type DiscordBucketLimit, type LimitWindow } from '@progresscard/emulator';

/** Which platform a point runs against (Telegram and Discord in the forms the issue names). */
export type ChannelName = 'feishu' | 'dingtalk' | 'telegram-private' | 'telegram-group' | 'discord' | 'discord-shifting' | 'slack' | 'slack-stream' | 'teams-group' | 'teams-personal';

/**
 * Every channel the bench knows, in table order. `slack`: cards posted in channels and edited
 * (chat.postMessage + chat.update); `slack-stream`: cards that reply in a thread to their
 * requester, streamed natively (chat.startStream / appendStream / stopStream). `teams-group`: Adaptive
 * Cards sent and updated in group chats (ten runs a chat); `teams-personal`: one run a 1:1 chat, streamed
 * natively (streaming activities, rolled over before each stream's two minutes).
 */
export const CHANNEL_NAMES: readonly ChannelName[] = ['feishu', 'dingtalk', 'telegram-private', 'telegram-group', 'discord', 'discord-shifting', 'slack', 'slack-stream', 'teams-group', 'teams-personal'];

/** An API route as the gates count it: a message's send and update, or a native stream's calls. */
export type GateRoute = 'send' | 'update' | 'start' | 'append' | 'stop';

/** One call as a gate sees it. `draft`: a Telegram `sendMessageDraft` (an answer part that still streams). */
export interface GateCall {
  readonly route: GateRoute;
  readonly chat: string;
  readonly message: string | undefined;
  readonly draft: boolean;
}

/** A refused call: the code the real platform answers with, and its retry-after. */
interface Refusal {
  readonly code: string;
  readonly retryAfterMs: number;
  readonly scope: 'card' | 'channel';
}

/** What a gate decided for one call; `answered(at)` runs when its answer reaches the client. */
interface Admission {
  readonly refusal?: Refusal;
  readonly answered?: (at: number) => void;
}

/** A platform's rate limits, as the emulators enforce them. */
export interface Gate {
  admit(call: GateCall): Admission;
  /** Sustained calls/s of the busier route across the app (the slowest app-wide window). */
  readonly appRate: number;
  /** The routes {@link appRate} limits (default send and update: the busier one counts). */
  readonly budgetedRoutes?: readonly GateRoute[];
  /** Sustained calls/s one chat allows (undefined: no per-chat limit). */
  readonly chatRate?: number;
  /** The windows of one app's send route (message create), where the floors are counted (see floors.ts); undefined: no floors. */
  readonly sendWindows?: readonly LimitWindow[];
  /** Budget keys to use instead of the plugin's (a Discord model announces to its own learned limits). */
  readonly budgetKeys?: (call: BudgetedCall<unknown>, settings: ChannelSettings) => readonly BudgetKey[];
}

const rateOf = (windows: readonly LimitWindow[]) => Math.min(...windows.map((w) => (w.limit * 1000) / w.intervalMs));

/** Feishu and DingTalk: the documented app-wide windows per API, Feishu's 5/s per chat (send) and per message (patch). */
function windowGate(channel: 'feishu' | 'dingtalk', clock: () => number): Gate {
  const limits =
    channel === 'feishu'
      ? { app: [{ limit: 50, intervalMs: 1000 }, { limit: 1000, intervalMs: 60_000 }], perTarget: [{ limit: 5, intervalMs: 1000 }], appCode: '99991400', targetCode: '230020' }
      : { app: [{ limit: 20, intervalMs: 1000 }], perTarget: undefined, appCode: 'QpsLimitForAppkeyAndApi', targetCode: '' };
  const app = new SlidingWindowLimiter(limits.app, clock);
  const perTarget = limits.perTarget && new SlidingWindowLimiter(limits.perTarget, clock);
  return {
    appRate: rateOf(limits.app),
    sendWindows: limits.app,
    admit(call) {
      const appDecision = app.tryAcquire(call.route);
      if (!appDecision.allowed) return { refusal: { code: limits.appCode, retryAfterMs: channel === 'dingtalk' ? 1000 : appDecision.retryAfterMs, scope: 'channel' } };
      const target = call.route === 'send' ? `chat:${call.chat}` : `message:${call.message}`;
      const targetDecision = perTarget?.tryAcquire(target);
      if (targetDecision && !targetDecision.allowed) return { refusal: { code: limits.targetCode, retryAfterMs: targetDecision.retryAfterMs, scope: 'card' } };
      return {};
    },
  };
}

/**
 * Telegram as its emulator limits it (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
 * 30 calls a second per bot, one a second per chat (sends and edits), 20 a minute per group, and
 * drafts one a second per chat on their own window; a refusal is `429` with `retry_after`.
 */
function telegramGate(kind: 'private' | 'group', clock: () => number): Gate {
  const limits = DEFAULT_TELEGRAM_LIMITS;
  const bot = new SlidingWindowLimiter(limits.perBotWindows, clock);
  const chat = new SlidingWindowLimiter(limits.perChatWindows, clock);
  const group = new SlidingWindowLimiter(limits.perGroupWindows, clock);
  const drafts = new SlidingWindowLimiter(limits.draftWindows, clock);
  const refuse = (retryAfterMs: number): Admission => ({ refusal: { code: '429', retryAfterMs: Math.max(1000, Math.ceil(retryAfterMs / 1000) * 1000), scope: 'channel' } });
  return {
    appRate: rateOf(limits.perBotWindows),
    chatRate: kind === 'private' ? rateOf(limits.perChatWindows) : Math.min(rateOf(limits.perChatWindows), rateOf(limits.perGroupWindows)),
    admit(call) {
      const ofBot = bot.tryAcquire('bot');
      if (!ofBot.allowed) return refuse(ofBot.retryAfterMs);
      const ofChat = (call.draft ? drafts : chat).tryAcquire(call.chat);
      if (!ofChat.allowed) return refuse(ofChat.retryAfterMs);
      if (kind === 'group' && !call.draft) {
        const ofGroup = group.tryAcquire(call.chat);
        if (!ofGroup.allowed) return refuse(ofGroup.retryAfterMs);
      }
      return {};
    },
  };
}

/** When the shifting Discord model changes its announced limits (ms after the point starts), and to what. */
const DISCORD_LIMIT_SHIFTS: readonly { readonly afterMs: number; readonly limit: DiscordBucketLimit }[] = [
  { afterMs: 20_000, limit: { limit: 2, windowMs: 5000 } },
  { afterMs: 50_000, limit: { limit: 8, windowMs: 4000 } },
];

/**
 * Discord as its emulator limits it: a bucket per route and channel (create, edit; 5 per 5 s by
 * default, UNCONFIRMED numbers Discord says not to hard code), announced on every answer in
 * `X-RateLimit-*` headers, and the global 50 a second. The budget keys are the Discord plugin's:
 * the global limit, then the route's bucket as learned from the announcements (`AnnouncedLimits`).
 * `shifting`: the buckets change their limits mid-run ({@link DISCORD_LIMIT_SHIFTS}).
 */
function discordGate(shifting: boolean, clock: () => number): Gate {
  const createRoute = (chat: string) => `POST /channels/${chat}/messages`;
  const editRoute = (chat: string) => `PATCH /channels/${chat}/messages`;
  const initial = DEFAULT_DISCORD_LIMITS.editBucket;
  const buckets = new DiscordBuckets(clock, { create: DEFAULT_DISCORD_LIMITS.createBucket, edit: initial }, DEFAULT_DISCORD_LIMITS.globalPerSecond);
  const learned = new AnnouncedLimits('discord:bench', { limit: 1, intervalMs: 1000 });
  const started = clock();
  let shifted = 0;
  const lowest = shifting ? Math.min(...DISCORD_LIMIT_SHIFTS.map((s) => s.limit.limit / s.limit.windowMs)) * 1000 : (initial.limit / initial.windowMs) * 1000;
  return {
    appRate: DEFAULT_DISCORD_LIMITS.globalPerSecond,
    chatRate: lowest,
    admit(call) {
      while (shifting && shifted < DISCORD_LIMIT_SHIFTS.length && clock() - started >= DISCORD_LIMIT_SHIFTS[shifted]!.afterMs) {
        for (const route of ['create', 'edit']) buckets.setLimit(route, DISCORD_LIMIT_SHIFTS[shifted]!.limit);
        shifted++;
      }
      const route = call.route === 'send' ? 'create' : 'edit';
      const decision = buckets.take(route, call.chat, 'bot');
      const h = decision.headers;
      const answered = (at: number) => {
        if (h['x-ratelimit-limit'] === undefined) return;
        learned.report(call.route === 'send' ? createRoute(call.chat) : editRoute(call.chat), {
          // As the plugin names it: the bucket hash and the top-level resource (the channel).
          bucket: `${h['x-ratelimit-bucket']}:${call.chat}`,
          limit: Number(h['x-ratelimit-limit']),
          remaining: Number(h['x-ratelimit-remaining']),
          resetAfterMs: Number(h['x-ratelimit-reset-after']) * 1000,
          receivedAt: at,
        });
      };
      if (decision.allowed) return { answered };
      const body = decision.body!;
      return { answered, refusal: { code: body.global ? '429 global' : '429', retryAfterMs: Math.ceil(body.retry_after * 1000), scope: body.global ? 'channel' : 'card' } };
    },
    budgetKeys(call, settings) {
      const extra = (call.message?.extra ?? call.replyTo?.extra) as { chat?: string } | undefined;
      const chat = extra?.chat ?? (call.target as { receiveId?: string } | undefined)?.receiveId ?? 'default';
      const route = call.kind === 'update' && call.message ? editRoute(chat) : createRoute(chat);
      return [{ key: 'discord:bench:global', windows: settings.budget }, learned.keysFor(route)];
    },
  };
}

/**
 * Slack as its emulator limits it (https://api.slack.com/apis/rate-limits): chat.postMessage one a
 * second per channel averaged over a minute (60 per 60 s), chat.update Tier 3 (50 a minute per app
 * per workspace), chat.startStream and chat.stopStream Tier 2 (20 a minute each), chat.appendStream
 * Tier 4 (100 a minute); a refusal is HTTP 429 `ratelimited` with `Retry-After` in whole seconds.
 * `appRate` is the route a card's progress goes through: chat.update, or appendStream when streamed.
 * Streamed, a card's message is a chat.startStream and its final a chat.stopStream (each Tier 2,
 * https://docs.slack.dev/reference/methods/chat.startStream), but a run over before its stream could
 * open is posted as one chat.postMessage (per channel): no single app-wide send route bounds every
 * run's message, so neither mode has floors (a design that streamed every card would need 24 minutes
 * for N = 500 starting together: 20 starts a minute per workspace).
 */
function slackGate(stream: boolean, clock: () => number): Gate {
  const limits = DEFAULT_SLACK_LIMITS;
  const post = new SlidingWindowLimiter(limits.postMessageWindows, clock);
  const update = new SlidingWindowLimiter(limits.updateWindows, clock);
  const startStop = new SlidingWindowLimiter(limits.streamStartStopWindows, clock);
  const appends = new SlidingWindowLimiter(limits.appendStreamWindows, clock);
  return {
    appRate: stream ? rateOf(limits.appendStreamWindows) : rateOf(limits.updateWindows),
    budgetedRoutes: [stream ? 'append' : 'update'],
    chatRate: rateOf(limits.postMessageWindows),
    admit(call) {
      const decision =
        call.route === 'send' ? post.tryAcquire(call.chat)
        : call.route === 'update' ? update.tryAcquire('workspace')
        : call.route === 'append' ? appends.tryAcquire('workspace')
        : startStop.tryAcquire(call.route);
      if (decision.allowed) return {};
      return { refusal: { code: 'ratelimited', retryAfterMs: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)) * 1000, scope: 'channel' } };
    },
  };
}

/**
 * Teams as its emulator limits it (https://learn.microsoft.com/microsoftteams/platform/bots/how-to/rate-limit):
 * per bot per conversation 7 a second, 8 in 2 s, 60 in 30 s (and 1 800 an hour in a 1:1 chat), every send,
 * update and stream activity counted; 30 a second per app; a refusal is HTTP 429 (no `Retry-After`
 * documented: the plugin's retry waits its own backoff, modelled as 1 s).
 */
function teamsGate(personal: boolean, clock: () => number): Gate {
  const limits = DEFAULT_TEAMS_LIMITS;
  const conversationWindows = personal ? [...limits.perConversationWindows, ...limits.personalChatWindows] : limits.perConversationWindows;
  const app = new SlidingWindowLimiter([{ limit: 30, intervalMs: 1000 }], clock);
  const conversation = new SlidingWindowLimiter(conversationWindows, clock);
  return {
    appRate: 30,
    budgetedRoutes: personal ? ['append'] : ['send', 'update'],
    chatRate: rateOf(conversationWindows),
    admit(call) {
      const ofApp = app.tryAcquire('app');
      if (!ofApp.allowed) return { refusal: { code: '429', retryAfterMs: 1000, scope: 'channel' } };
      const ofConversation = conversation.tryAcquire(call.chat);
      if (!ofConversation.allowed) return { refusal: { code: '429', retryAfterMs: 1000, scope: 'card' } };
      return {};
    },
  };
}

/** The gate of `channel` on `clock`. */
export function gateOf(channel: ChannelName, clock: () => number): Gate {
  switch (channel) {
    case 'feishu':
    case 'dingtalk':
      return windowGate(channel, clock);
    case 'telegram-private':
      return telegramGate('private', clock);
    case 'telegram-group':
      return telegramGate('group', clock);
    case 'discord':
      return discordGate(false, clock);
    case 'discord-shifting':
      return discordGate(true, clock);
    case 'slack':
      return slackGate(false, clock);
    case 'slack-stream':
      return slackGate(true, clock);
    case 'teams-group':
      return teamsGate(false, clock);
    case 'teams-personal':
      return teamsGate(true, clock);
  }
}
