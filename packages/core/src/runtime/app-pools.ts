import type { ChannelRegistry } from '../delivery/channel-registry.js';
import type { ChannelStats } from '../delivery/channel-dispatcher.js';
import { isAppPool, type AppPool } from '../plugin/app-pool.js';
import type { ChannelPlugin } from '../plugin/contract.js';
import { AppLoads } from './app-loads.js';

/** Where a stored card goes now (see {@link AppPools.storedChannel}). */
export interface StoredChannel {
  /** The registered channel that delivers it. */
  readonly channelId: string;
  /** False when that channel may not edit the card's stored message: the card goes on as a fresh message. */
  readonly keepsMessage: boolean;
  /** The app identity (`ChannelPlugin.appIdentity`) that channel has now, when its plugin names one. */
  readonly appIdentity?: string;
}

/**
 * The app pools of one composition (see `appPool`): the plugins the registry gets (each pool's apps
 * as channels of their own), and which app a card opened on a pool's id goes to.
 */
export class AppPools {
  /** Open cards per pool (by pool id). */
  private readonly loads = new Map<string, AppLoads>();
  /** The pool of each app id. */
  private readonly poolOfApp = new Map<string, AppPool>();

  private constructor(
    /** Every channel to register: the plain plugins and each pool's apps. */
    readonly plugins: readonly ChannelPlugin[],
    private readonly pools: ReadonlyMap<string, AppPool>,
  ) {
    for (const pool of pools.values()) {
      this.loads.set(pool.id, new AppLoads());
      for (const app of pool.apps) this.poolOfApp.set(app.id, pool);
    }
  }

  /**
   * Splits `channels` into plugins and pools.
   * @throws Error when a pool's id is also a plain channel's or another pool's.
   */
  static of(channels: readonly (ChannelPlugin | AppPool)[]): AppPools {
    const pools = new Map<string, AppPool>();
    const plugins: ChannelPlugin[] = [];
    for (const channel of channels) {
      if (!isAppPool(channel)) {
        plugins.push(channel);
        continue;
      }
      if (pools.has(channel.id)) throw new Error(`app pool ${JSON.stringify(channel.id)} is given twice: give one pool with all the channel's apps`);
      pools.set(channel.id, channel);
      plugins.push(...channel.apps);
    }
    const clash = plugins.find((plugin) => pools.has(plugin.id));
    if (clash) throw new Error(`channel ${JSON.stringify(clash.id)} is given both as a plugin and as an app pool: give its apps in the pool only`);
    return new AppPools(plugins, pools);
  }

  /**
   * The channel a card opened on `channelId` for `target` goes to: `channelId` itself, or for a pool
   * one of the apps whose channel is not stopped (refused credentials, spent quota): the app the
   * chat has open cards on, else the least-loaded app (`spread: 'least-loaded'`: fewest chats with
   * open cards, then fewest open cards, ties in the chat's order `AppPool.rank`) or the first in the chat's order (`spread: 'hash'`); when all are stopped,
   * the chat's own app (its final gets its one try there).
   */
  appFor(channelId: string, target: unknown, registry: ChannelRegistry): string {
    const pool = this.pools.get(channelId);
    if (!pool) return channelId;
    const ranked = pool.rank(target);
    const usable = ranked.filter((app) => registry.channel(app.id).stoppedBy === undefined);
    if (usable.length === 0) return ranked[0]!.id;
    const loads = this.loads.get(channelId)!;
    const sticky = loads.appsOf(pool.chatOf(target)).find((appId) => usable.some((app) => app.id === appId));
    if (sticky !== undefined) return sticky;
    if (pool.spread === 'hash') return usable[0]!.id;
    // Fewest chats with open cards (a chat's later cards follow it), then fewest open cards.
    const busier = (a: string, b: string) => loads.chats(a) - loads.chats(b) || loads.cards(a) - loads.cards(b);
    let least = usable[0]!;
    for (const app of usable) if (busier(app.id, least.id) < 0) least = app;
    return least.id;
  }

  /**
   * Counts a card of `target` opened on channel `appId` (new, or continued from the store) until
   * `closed` settles (its final settled), so the pool's next cards see its load and its chat stays on
   * its app. No-op for a channel that is no pool's app.
   */
  opened(appId: string, target: unknown, closed: Promise<unknown>): void {
    const pool = this.poolOfApp.get(appId);
    if (!pool) return;
    const release = this.loads.get(pool.id)!.opened(pool.chatOf(target), appId);
    void closed.then(release, release);
  }

  /**
   * The registered channel a card stored under `channelId` (by an earlier deployment) is delivered
   * through now; undefined when no registered channel can take it (another process may). The app
   * ids of a pool name its apps by position (`<id>-app<n>`), so after a move:
   * - a channel that was one app and is now a pool: its cards go to the pool's first app, the one
   *   the single app is when it is listed first (the app pools' rule: keep the order, add new apps
   *   at the end), and keep their message (`keepsMessage`);
   * - a pool that is one app again (`<id>-app1` → `<id>`) likewise;
   * - an app dropped from its pool (or any app but the first when the pool is one app again): no
   *   app of this process may edit the messages it sent (a platform lets only the sending app edit
   *   a message: Feishu, Slack, Telegram), so its cards go on as fresh messages through the app
   *   their chat has now (`keepsMessage: false`).
   *
   * When the card carries the identity of the app that sent it (`appIdentity`, see
   * `ChannelPlugin.appIdentity`) and the apps here name theirs, the identity decides instead of
   * the position: the app with that identity keeps the message wherever it is listed now; when
   * none has it, the card goes on as a fresh message through its chat's app (an app at the old
   * position is another app: the platform would refuse its edits).
   */
  storedChannel(channelId: string, target: unknown, registry: ChannelRegistry, appIdentity?: string): StoredChannel | undefined {
    const registered = registry.channelIds;
    const byIdentity = appIdentity === undefined ? undefined : this.byIdentity(channelId, target, registry, appIdentity);
    if (byIdentity) return byIdentity;
    if (registered.includes(channelId)) return { channelId, keepsMessage: true };
    const pool = this.pools.get(channelId);
    if (pool) return { channelId: pool.apps[0]!.id, keepsMessage: true };
    const member = /^(.+)-app([1-9]\d*)$/.exec(channelId);
    if (!member) return undefined;
    const [, base, position] = member as unknown as [string, string, string];
    if (this.pools.has(base)) return { channelId: this.appFor(base, target, registry), keepsMessage: false };
    if (registered.includes(base)) return { channelId: base, keepsMessage: position === '1' };
    return undefined;
  }

  /**
   * Where a card `appIdentity` sent under `channelId` goes: the registered app of its channel with
   * that identity (on its message), else its chat's app now (fresh message); undefined when the
   * channel's apps name no identity (positions decide) or the channel is not here.
   */
  private byIdentity(channelId: string, target: unknown, registry: ChannelRegistry, appIdentity: string): StoredChannel | undefined {
    const base = /^(.+)-app[1-9]\d*$/.exec(channelId)?.[1] ?? channelId;
    const registered = new Set(registry.channelIds);
    const candidates = [...this.appIds(base), ...this.appIds(channelId)].filter((id) => registered.has(id));
    const named = this.plugins.filter((plugin) => candidates.includes(plugin.id) && plugin.appIdentity !== undefined);
    if (named.length === 0) return undefined;
    const same = named.find((plugin) => plugin.appIdentity === appIdentity);
    if (same) return { channelId: same.id, keepsMessage: true, appIdentity };
    const now = this.pools.has(base) ? this.appFor(base, target, registry) : registered.has(base) ? base : undefined;
    if (now === undefined) return undefined;
    const nowIdentity = this.plugins.find((plugin) => plugin.id === now)?.appIdentity;
    return { channelId: now, keepsMessage: false, ...(nowIdentity !== undefined && { appIdentity: nowIdentity }) };
  }

  /** The registered channels behind `channelId`: a pool's apps, else the id itself. */
  appIds(channelId: string): readonly string[] {
    return this.pools.get(channelId)?.apps.map((app) => app.id) ?? [channelId];
  }

  /** A channel's counters; a pool's summed over its apps. @throws Error naming an unknown channel id. */
  stats(channelId: string, registry: ChannelRegistry): ChannelStats {
    const all = this.appIds(channelId).map((id) => registry.channel(id).stats);
    return all.reduce((sum, stats) => ({
      sent: sum.sent + stats.sent,
      updated: sum.updated + stats.updated,
      failed: sum.failed + stats.failed,
      rateLimited: sum.rateLimited + stats.rateLimited,
      unchanged: sum.unchanged + stats.unchanged,
    }));
  }
}
