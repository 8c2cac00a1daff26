import { createHash } from 'node:crypto';
import { channelDefaultLocale } from '../card/locale.js';
import type { ChannelPlugin } from './contract.js';

/**
 * Several apps (bots) of one platform presented as one channel: a product past one app's rate
 * limits (Feishu's 50 calls/s per API route and app, Slack's Tier 3 per app and workspace) runs
 * several apps, each with its own credentials, and opens cards on one channel id. The composition
 * registers each app as a channel of its own (`feishu-app1`, `feishu-app2`…: its own budgets,
 * failure handling, credential probes and stats) and assigns each new card to one app, sticky per
 * chat.
 */

/**
 * How a pool picks the app of a chat that has no open card in this process (see {@link AppPoolOptions.spread}):
 * - `'least-loaded'`: the app with the fewest chats with open cards, then the fewest open cards (ties:
 *   the chat's first app in {@link AppPool.rank}), so apps carry even shares however the chats' names hash
 *   (a chat's later cards follow it, so chats are counted first);
 * - `'hash'`: the chat's first app in {@link AppPool.rank}, the same in every process and every time.
 */
export type AppSpread = 'least-loaded' | 'hash';

/** A pool built by {@link appPool}: what `createProgressCards({ channels: [...] })` takes beside plugins. */
export interface AppPool<Payload = unknown, Target = unknown> {
  readonly kind: 'app-pool';
  /** The channel id cards are opened on (`cards.open('feishu', chat)`): the apps' own id. */
  readonly id: string;
  /**
   * The apps as the composition registers them: each app's plugin with the id `<id>-app<n>` (n from
   * 1, in the order given), so each has its own dispatcher, stats and stored cards. A card stored
   * by one app is resumed on the app of the same id. Keep the order of the apps across deploys
   * (add new ones at the end): the ids name the apps in stored cards, unless the plugins name their
   * app (`ChannelPlugin.appIdentity`, e.g. Feishu's app_id): then the app with the card's identity
   * takes it wherever it is listed. A card
   * stored by the channel before it was a pool goes on through app 1 (list that app first); a card of
   * an app no longer in the pool goes on as a fresh message through its chat's app.
   */
  readonly apps: readonly ChannelPlugin<Payload, Target>[];
  /** The chat a target names: what sticks to one app (see {@link AppPoolOptions.chatOf}). */
  chatOf(target: Target | undefined): string;
  /** How a chat without open cards picks its app (see {@link AppPoolOptions.spread}). */
  readonly spread: AppSpread;
  /**
   * The apps in the order a card of `target`'s chat tries them: the first usable one gets the card.
   * Rendezvous hashing (highest random weight) of the chat and the app ids: the same in every process
   * with the same apps, and when an app is left out only its chats move, each to its own next app.
   */
  rank(target: Target | undefined): readonly ChannelPlugin<Payload, Target>[];
}

/** Options of {@link appPool}. */
export interface AppPoolOptions<Target> {
  /**
   * The chat of a target, the unit that sticks to one app (per-chat limits are counted per app on
   * most platforms). Default: the target's JSON with sorted keys (`''` for `undefined`, the apps'
   * configured target). Give it when a target carries more than the chat (a thread, a run id), or
   * each card of one chat may go through another app.
   */
  readonly chatOf?: (target: Target | undefined) => string;
  /**
   * How a chat with no open card in this process picks its app; a chat with open cards stays on their
   * app. Default `'least-loaded'`: the app with the fewest chats and cards open in this process, so apps carry
   * even shares (hashing 2 000 chats over 10 apps gave the busiest app 1.12 × the mean, and its cards
   * waited that much longer for their app's budget). A chat may then be on another app after its cards
   * closed, or in another process: every app must be able to post in every chat (it must for failover
   * too). `'hash'`: always the chat's first app in {@link AppPool.rank} (a chat sees one bot).
   */
  readonly spread?: AppSpread;
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Presents several configured instances of one channel plugin (one per app or bot, each with its
 * own credentials) as one channel. Pass the pool in `createProgressCards({ channels: [pool] })` and
 * open cards on `pool.id`. Each card goes to one app: a chat's cards stay on the app of its open
 * cards; a chat without open cards goes to the least-loaded app, or with `spread: 'hash'` to the
 * same app in every process sharing the apps (see {@link AppPool.rank}); an app whose credentials or quota the
 * platform refused (the channel stopped) gets no new chats while stopped: they go to the chat's
 * next app. Cards already on that app stay there: its credential probes bring them back when the
 * credentials work again, else each final gets its one try, as for any channel.
 *
 * Each app's budget keys must name the app (Feishu `feishu:<app_id>:…`, Slack a digest of the bot
 * token…), as every bundled plugin's do, or two apps would share one budget; a plugin without
 * `budgetKeys` draws from its app id `<id>-app<n>`.
 *
 * @throws TypeError when no app is given, the apps' ids differ or `spread` is not one of {@link AppSpread}.
 */
export function appPool<Payload, Target>(apps: readonly ChannelPlugin<Payload, Target>[], options: AppPoolOptions<Target> = {}): AppPool<Payload, Target> {
  if (!Array.isArray(apps) || apps.length === 0) throw new TypeError('appPool needs at least one app (a channel plugin per app or bot)');
  const id = apps[0]!.id;
  const other = apps.find((app) => app.id !== id);
  if (other) throw new TypeError(`appPool apps must be one channel's: got ${JSON.stringify(id)} and ${JSON.stringify(other.id)}`);
  const members: ChannelPlugin<Payload, Target>[] = apps.map((app, index) => memberOf<Payload, Target>(app, `${id}-app${index + 1}`));
  const chatOf = options.chatOf ?? stableJson;
  const spread = options.spread ?? 'least-loaded';
  if (spread !== 'least-loaded' && spread !== 'hash') throw new TypeError(`appPool spread = ${JSON.stringify(spread)}: expected "least-loaded" or "hash"`);
  return {
    kind: 'app-pool',
    id,
    apps: members,
    chatOf,
    spread,
    rank(target) {
      const chat = chatOf(target);
      return members
        .map((app) => ({ app, weight: createHash('sha256').update(`${app.id}\u0000${chat}`).digest().readUIntBE(0, 6) }))
        .sort((a, b) => b.weight - a.weight || (a.app.id < b.app.id ? -1 : 1))
        .map(({ app }) => app);
    },
  };
}

/** True when `value` is an {@link AppPool} rather than a plugin. */
export function isAppPool(value: unknown): value is AppPool {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'app-pool';
}

/** The app's plugin under its pool id; its language stays the channel's, and it serialises as the plugin does. */
function memberOf<Payload, Target>(app: ChannelPlugin<Payload, Target>, memberId: string): ChannelPlugin<Payload, Target> {
  const member: ChannelPlugin<Payload, Target> = { ...app, id: memberId, defaultLocale: app.defaultLocale ?? channelDefaultLocale(app.id) };
  const shown = () => ({ ...(app as { toJSON?: () => object }).toJSON?.(), id: memberId });
  Object.defineProperty(member, 'toJSON', { value: shown, enumerable: false });
  Object.defineProperty(member, INSPECT, { value: shown, enumerable: false });
  return member;
}

/** JSON with object keys sorted, so equal targets give equal text whatever their key order. */
function stableJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}
