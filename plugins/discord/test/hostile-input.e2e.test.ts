import { HOSTILE_EVENTS, LONE_SURROGATE, stringsIn } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

/**
 * Hostile input on a Discord card: push() must never throw, the card must end completed with the
 * answer, and the API must refuse nothing (lengths, markup, lone surrogates). Discord breaks `<` markup with a zero-width space.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Discord: hostile input', () => {
  it('push never throws, nothing is refused, the card ends completed with the answer', async () => {
    h = await harness();
    const card = h.cards.open('discord');
    for (const [i, event] of HOSTILE_EVENTS.entries()) {
      expect(() => card.push(event as never), `event ${i}`).not.toThrow();
    }
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    expect(h.emulator.calls({ outcome: 'rejected' })).toEqual([]);
    const [message] = h.emulator.messages();
    // Every string of the message (content, embed titles, descriptions, fields, footers).
    const shown = stringsIn([message!.content, message!.embeds]).join('\n');
    expect(shown).toMatch(/FINAL <\u200b?answer> & done/);
    expect(shown).not.toMatch(LONE_SURROGATE);
  }, 60_000);
});
