import { HOSTILE_EVENTS, LONE_SURROGATE } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

/**
 * Hostile input on a Telegram card: push() must never throw, the card must end completed with the
 * answer, and the Bot API must refuse nothing (entities, lengths, lone surrogates).
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Telegram: hostile input', () => {
  it('push never throws, nothing is refused, the card ends completed with the answer', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('telegram');
    for (const [i, event] of HOSTILE_EVENTS.entries()) {
      expect(() => card.push(event as never), `event ${i}`).not.toThrow();
    }
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const [message] = h.emulator.messages();
    expect(message!.text).toContain('FINAL <answer> & done');
    expect(message!.text).not.toMatch(LONE_SURROGATE);
  }, 60_000);
});
