import type { CardTransport, MessageRef, SendRequest, UpdateRequest } from '../../plugin/contract.js';
import type { Clock } from '../../shared/clock.js';

/**
 * How much longer than the tick a card waits between two progressive updates once it has spent
 * `used` of its `cap` calls: 1 until half the cap is spent, then `cap / (2 × remaining)`, where
 * `remaining = cap − used − 1` keeps one call for the final. So with a cap of 40 the tick doubles
 * at 29 calls, quadruples at 34, and no progressive update goes out once only the final's call is
 * left. Infinity means "final only from here".
 */
export function tickStretch(used: number, cap: number): number {
  const remaining = cap - used - 1;
  if (remaining <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(1, cap / (2 * remaining));
}

interface MessageSpend {
  calls: number;
  lastCallAt: number;
}

/**
 * Wraps a transport so that no card message spends more than `cap` platform calls: progressive
 * updates that come sooner than the stretched tick ({@link tickStretch}) after the message's last
 * call are answered at once without a platform call (the next update carries the latest card, since
 * renders are whole); a final update always goes out. Sends and continuation parts count against
 * the card's main message. For a monthly quota: cap = quota ÷ runs expected per month.
 */
export function capCallsPerMessage<Payload, Target>(
  transport: CardTransport<Payload, Target>,
  cap: number,
  tickMs: () => number,
  clock: Clock,
): CardTransport<Payload, Target> {
  const spend = new Map<string, MessageSpend>();
  const count = (id: string) => {
    const entry = spend.get(id) ?? { calls: 0, lastCallAt: 0 };
    entry.calls += 1;
    entry.lastCallAt = clock.now();
    spend.set(id, entry);
  };
  const wrapped: CardTransport<Payload, Target> = {
    async send(request: SendRequest<Payload, Target>): Promise<MessageRef> {
      const ref = await transport.send(request);
      count(request.replyTo?.id ?? ref.id);
      return ref;
    },
    async update(request: UpdateRequest<Payload>): Promise<void> {
      const id = request.message.id;
      const entry = spend.get(id);
      if (request.final) {
        spend.delete(id);
        return transport.update(request);
      }
      const stretch = entry ? tickStretch(entry.calls, cap) : 1;
      // Within the stretched tick (or with only the final's call left): skip this progressive update.
      if (entry && stretch > 1 && clock.now() - entry.lastCallAt < stretch * tickMs()) return;
      await transport.update(request);
      count(id);
    },
    classify: (error) => transport.classify(error),
  };
  if (transport.refreshAuth) wrapped.refreshAuth = () => transport.refreshAuth!();
  if (transport.reply) wrapped.reply = (request) => transport.reply!(request);
  if (transport.onNotice) wrapped.onNotice = (listener) => transport.onNotice!(listener);
  return wrapped;
}
