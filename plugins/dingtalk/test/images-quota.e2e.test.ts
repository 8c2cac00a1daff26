import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger, type ProgressCards } from '@progresscard/core';
import type { DingTalkEmulator } from '@progresscard/emulator';
import { setup } from './helpers.js';

/** A 2×2 blue PNG (another image: equal images show once). */
const BLUE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAD0lEQVR4nGNgaPgPQhAKACX2Bf2gcp/LAAAAAElFTkSuQmCC';
/** A 2×2 red PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

let emulator: DingTalkEmulator | undefined;
let cards: ProgressCards | undefined;
afterEach(async () => {
  await cards?.shutdown();
  await emulator?.close();
  cards = undefined;
  emulator = undefined;
});

async function start(config = {}) {
  const s = await setup(config);
  emulator = s.emulator;
  cards = createProgressCards({ channels: [s.plugin], logger: silentLogger, env: {} });
  return { emulator: s.emulator, cards };
}

describe('DingTalk: images and the monthly quota (over loopback)', () => {
  it('an image result or answer image shows as its text, never as base64, and no call is rejected', async () => {
    const { emulator, cards } = await start();
    const card = cards.open('dingtalk', undefined, { locale: 'en' });
    card.start({ title: 'Screenshot', locale: 'en' });
    card.toolStarted('s1', 'screenshot');
    card.push({ type: 'tool.finished', callId: 's1', summary: 'captured', images: [{ data: PNG, mediaType: 'image/png', alt: 'home page' }] });
    card.answer(`Looks fine: ![zoomed](data:image/png;base64,${BLUE_PNG})`);
    card.complete();
    await card.finalDelivery;
    const [dt] = emulator.cards();
    expect(dt!.cardData.msgContent).toContain('[image: home page]');
    expect(dt!.cardData.msgContent).toContain('[image: zoomed]');
    expect(dt!.cardData.msgContent).not.toContain('base64');
    expect(dt!.history.every((h) => h.outcome === 'accepted')).toBe(true);
  });

  it('the debug footer of the final card shows the calls it spent against the 5,000 a month of a standard organisation', async () => {
    const { emulator, cards } = await start({ footerStyle: 'debug' });
    const card = cards.open('dingtalk', undefined, { locale: 'en' });
    card.start({ title: 'Quota', locale: 'en' });
    card.answer('done');
    card.complete();
    await card.finalDelivery;
    const [dt] = emulator.cards();
    const metered = dt!.history.filter((h) => h.outcome === 'accepted').length;
    const shown = /quota (\d+) of 5,000\/month/.exec(dt!.cardData.msgContent ?? '');
    expect(shown).not.toBeNull();
    // The count is the card's calls up to and including the call carrying the final (a final in two steps, stream and variables, counts one).
    expect(Number(shown![1])).toBeGreaterThan(0);
    expect(Number(shown![1])).toBeLessThanOrEqual(metered);
  });

  it('the compact footer never shows the quota; a configured monthlyQuota replaces the default', async () => {
    const { emulator, cards } = await start({ monthlyQuota: 20_000, footerStyle: 'debug' });
    const card = cards.open('dingtalk', undefined, { locale: 'en' });
    card.start({ title: 'Quota', locale: 'en' });
    card.complete('ok');
    await card.finalDelivery;
    expect(emulator.cards()[0]!.cardData.msgContent).toMatch(/quota \d+ of 20,000\/month/);
    await cards.shutdown();
    await emulator.close();
    const second = await start();
    const plain = second.cards.open('dingtalk', undefined, { locale: 'en' });
    plain.start({ title: 'Quota', locale: 'en' });
    plain.complete('ok');
    await plain.finalDelivery;
    expect(second.emulator.cards()[0]!.cardData.msgContent).not.toMatch(/quota/);
  });
});
