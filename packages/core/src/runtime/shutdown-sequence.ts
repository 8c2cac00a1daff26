import type { FinalDelivery } from '../delivery/card-delivery-record.js';
import type { CardLeases } from '../delivery/durable/card-leases.js';
import type { ChannelRegistry } from '../delivery/channel-registry.js';
import type { InteractionRouter } from '../interaction/router.js';
import type { CardSessions } from './card-sessions.js';
import { finalWithin, INTERRUPTED_REASONS } from './shutdown.js';
import type { Takeover } from './takeover.js';
import type { Ticker } from './ticker.js';

/** The parts of a composition its shutdown stops, in this order. */
export interface ShutdownParts {
  readonly sessions: CardSessions;
  readonly registry: ChannelRegistry;
  readonly interactions: InteractionRouter;
  readonly ticker: Ticker;
  readonly takeover: Takeover;
  readonly leases: CardLeases;
}

/**
 * The shutdown of one composition (see `ProgressCards.shutdown`): ends every running card as
 * cancelled, waits for the finals and what earlier turns still send (one deadline for all), then
 * closes the channels (no call starts, calls in flight answer, finals not settled are reported), then
 * stops the click router, the ticker, the channels' timers, the orphan sweep and lease renewals.
 * `options` as checked by `shutdownOptions`.
 */
export async function shutDownComposition(parts: ShutdownParts, options: { reason?: string; deadlineMs: number }): Promise<FinalDelivery[]> {
  const { reason, deadlineMs } = options;
  const { sessions, registry } = parts;
  // Cards holding their updates until the final: a started one ends as cancelled and is posted.
  for (const held of sessions.held) {
    if (held.started && (held.status === 'running' || held.status === 'waiting')) held.cancel(reason ?? INTERRUPTED_REASONS[held.view().locale]);
  }
  const cards = [...sessions.live];
  for (const card of cards) {
    const why = reason ?? INTERRUPTED_REASONS[card.view().locale];
    // A card no event reached has posted nothing: it ends without a message.
    if (card.endIfNeverStarted(why)) continue;
    if (card.status === 'running' || card.status === 'waiting') card.cancel(why);
  }
  // Within the deadline: the finals, earlier cards of a card-per-turn run still retrying theirs,
  // completion pings. One deadline for all of it.
  let timer: NodeJS.Timeout | undefined;
  const everything = Promise.all([Promise.all(cards.map((card) => card.finalDelivery)), registry.idle(), Promise.all([...sessions.pings])]);
  await Promise.race([everything, new Promise((resolve) => (timer = setTimeout(resolve, deadlineMs)))]);
  clearTimeout(timer);
  // Past it: no call starts any more, a call in flight is answered first (its answer may still
  // deliver a final), and every final not settled then is reported as such, finalDelivery too.
  await registry.close(`final not delivered within the shutdown deadline (${deadlineMs} ms)`);
  const results = await Promise.all(cards.map((card) => finalWithin(card.finalDelivery, 0, () => card.status)));
  await parts.interactions.close();
  parts.ticker.dispose();
  registry.dispose();
  parts.takeover.dispose();
  parts.leases.dispose();
  return results;
}
