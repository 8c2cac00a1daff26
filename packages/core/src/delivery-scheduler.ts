import { inject, injectable } from 'tsyringe';
import { ChannelScheduler } from './channel-scheduler.js';
import { systemClock } from './clock.js';
import type { Logger } from './logger.js';
import type { ChannelPlugin } from './plugin.js';
import { resolveChannelSettings } from './settings.js';
import { TOKENS, type DeliveryPolicy } from './tokens.js';

/**
 * Owns one {@link ChannelScheduler} (budget, per-card intervals, retries) per registered channel.
 * A singleton of one composition: two compositions never share budgets by accident.
 */
@injectable()
export class DeliveryScheduler {
  private readonly channels = new Map<string, ChannelScheduler>();

  constructor(
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Env) private readonly env: Readonly<Record<string, string | undefined>>,
    @inject(TOKENS.DeliveryPolicy) private readonly policy: DeliveryPolicy,
  ) {}

  /**
   * Registers a channel.
   * @throws Error when the id is malformed or already registered.
   */
  addChannel(plugin: ChannelPlugin): ChannelScheduler {
    if (!/^[a-z][a-z0-9-]*$/.test(plugin.id)) {
      throw new Error(`channel id must be lowercase letters, digits and dashes, got ${JSON.stringify(plugin.id)}`);
    }
    if (this.channels.has(plugin.id)) throw new Error(`channel ${JSON.stringify(plugin.id)} is registered twice`);
    const settings = resolveChannelSettings(plugin, this.env, this.logger);
    // Platform limits are in wall time, so delivery timing uses the wall clock (vitest's fake timers
    // control it too); the injected Clock is card time (event stamps, elapsed, footer), which a
    // replay may run faster than real time.
    const scheduler = new ChannelScheduler(plugin, settings, systemClock, this.logger, this.policy);
    this.channels.set(plugin.id, scheduler);
    return scheduler;
  }

  /** @throws Error naming the unknown id and the registered ones. */
  channel(id: string): ChannelScheduler {
    const scheduler = this.channels.get(id);
    if (!scheduler) {
      throw new Error(`unknown channel ${JSON.stringify(id)}; registered: ${[...this.channels.keys()].join(', ') || '(none)'}`);
    }
    return scheduler;
  }

  /** Registered channel ids. */
  get channelIds(): string[] {
    return [...this.channels.keys()];
  }

  /** Resolves when no card of any channel is dirty or in flight. */
  async idle(): Promise<void> {
    await Promise.all([...this.channels.values()].map((channel) => channel.idle()));
  }

  dispose(): void {
    for (const channel of this.channels.values()) channel.dispose();
  }
}
