import { loadFaultCases } from '@progresscard/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, textOf, type Harness } from './harness.js';

/**
 * Cases F23 and F24, copied from the team's shared fault set `faults-4` (each line keeps the reports
 * it comes from in `from_report` and `also`).
 */
const cases = loadFaultCases(new URL('./fixtures/faults-4.jsonl', import.meta.url));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const cardkit = { mode: 'cardkit' } as const;
const INVALID_CARD_ID = { status: 400, body: { code: 230099, msg: 'Failed to create card content, ext=ErrCode: 11310; ErrMsg: cardid is invalid; ' } };

/** Plays the case's events on `count` cards at once; resolves with their finals. */
async function runCards(harnessed: Harness, events: readonly Record<string, unknown>[], count: number) {
  const cards = Array.from({ length: count }, () => harnessed.cards.open('feishu'));
  await Promise.all(cards.map((card) => harnessed.play(card, events)));
  return Promise.all(cards.map((card) => card.finalDelivery));
}

describe('Feishu CardKit without its scope, and refused card entities', () => {
  it('F24 app without cardkit:card:write: every card still shows as a plain interactive card, completed, with one warning naming the scope', async () => {
    const c = cases.get('F24')!;
    h = await harness({ scale: 10, plugin: cardkit, emulator: { missingScopes: ['cardkit:card:write'] } });
    const finals = await runCards(h, c.events, 3);

    for (const final of finals) expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(3);
    for (const message of messages) {
      expect(message.cardId).toBeUndefined();
      expect(message.card).toMatchObject({ header: { template: 'green' } });
      expect(textOf(message.card, 'answer')).toBe('The root volume is 91% full; the logs folder holds 40 GB.');
    }
    // The refused create is not called per update, nor by cards opened once the scope is known
    // missing (cards sending at the same moment may each have met the refusal once).
    const refusedCreates = h.emulator.calls({ route: 'cardkit.card.create' }).length;
    expect(refusedCreates).toBeGreaterThanOrEqual(1);
    expect(refusedCreates).toBeLessThanOrEqual(3);
    expect(await runCards(h, c.events, 1)).toMatchObject([{ ok: true, status: 'completed' }]);
    expect(h.emulator.calls({ route: 'cardkit.card.create' })).toHaveLength(refusedCreates);
    const warnings = h.logger.lines.filter((line) => line.startsWith('warn') || line.startsWith('error'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warn feishu: CardKit refused: the app lacks permission scope cardkit:card:write/);
    expect(h.logger.lines.join('\n')).not.toMatch(/credentials refused/);
  });

  it('F23 an entity refused as "cardid is invalid": a new entity is sent within the same call, the refused card_id never again', async () => {
    const c = cases.get('F23')!;
    h = await harness({ scale: 10, plugin: cardkit });
    h.emulator.faults.add({ route: 'im.message.create', nth: 1, respond: INVALID_CARD_ID });
    const [final] = await runCards(h, c.events, 1);

    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.card).toMatchObject({ header: { template: 'green' } });
    expect(textOf(messages[0]!.card, 'answer')).toBe('The outage came from an expired certificate on the gateway.');
    const sends = h.emulator.calls({ route: 'im.message.create' });
    const refusedContent = JSON.stringify(sends[0]!.request);
    const [refusedId] = /card_id\\?":\\?"([^"\\]+)/.exec(refusedContent)!.slice(1);
    expect(sends.filter((call) => JSON.stringify(call.request).includes(refusedId!))).toHaveLength(1);
    expect(messages[0]!.cardId).toBeDefined();
    expect(messages[0]!.cardId).not.toBe(refusedId);
    // The visible card comes with the first send, not after a retry ladder (one call per try).
    expect(sends.map((call) => call.code)).toEqual([230099, 0]);
  });

  it('F23 when the replacement entity is refused too: a plain interactive card, completed', async () => {
    const c = cases.get('F23')!;
    h = await harness({ scale: 10, plugin: cardkit });
    h.emulator.faults.add({ route: 'im.message.create', times: 2, respond: INVALID_CARD_ID });
    const [final] = await runCards(h, c.events, 1);

    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const messages = h.emulator.messages();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.cardId).toBeUndefined();
    expect(textOf(messages[0]!.card, 'answer')).toBe('The outage came from an expired certificate on the gateway.');
    expect(h.emulator.calls({ route: 'im.message.create' }).map((call) => call.code)).toEqual([230099, 230099, 0]);
    expect(h.emulator.calls({ route: 'cardkit.card.create' })).toHaveLength(2);
  });

  it('CardKit scope taken away mid-run: the card is sent again as a plain card and ends completed, with the scope warning once', async () => {
    const c = cases.get('F24')!;
    h = await harness({ scale: 10, plugin: cardkit });
    const refused = { status: 400, body: { code: 99991672, msg: 'Access denied. One of the following scopes is required: [cardkit:card:write].' } };
    for (const route of ['cardkit.card.update', 'cardkit.element.content', 'cardkit.card.settings']) h.emulator.faults.add({ route, respond: refused });
    const [final] = await runCards(h, c.events, 1);

    expect(final).toMatchObject({ ok: true, status: 'completed', freshMessage: true });
    const [entityMessage, plain, ...more] = h.emulator.messages();
    expect(more).toEqual([]);
    expect(entityMessage!.cardId).toBeDefined();
    expect(plain!.cardId).toBeUndefined();
    expect(plain!.messageId).toBe(final!.message!.id);
    expect(textOf(plain!.card, 'answer')).toBe('The root volume is 91% full; the logs folder holds 40 GB.');
    expect(h.logger.lines.filter((line) => /lacks permission scope cardkit:card:write/.test(line))).toHaveLength(1);
    expect(h.logger.lines.join('\n')).not.toMatch(/^error/m);
  });

  it('a missing IM scope produces one error for the channel, not one retry ladder per card', async () => {
    const c = cases.get('F24')!;
    h = await harness({ scale: 10, emulator: { missingScopes: ['im:message', 'im:message:send_as_bot'] } });
    const finals = await runCards(h, c.events, 3);

    for (const final of finals) expect(final).toMatchObject({ ok: false, error: expect.stringMatching(/^feishu lacks permission scope im:message, im:message:send_as_bot/) });
    // CardKit (the default) creates each card's entity first, so the three sends may already be in
    // flight when the first refusal comes back: at most one refused send per card, never a ladder.
    expect(h.emulator.calls({ route: 'im.message.create' }).length).toBeLessThanOrEqual(3);
    const problems = h.logger.lines.filter((line) => line.startsWith('warn') || line.startsWith('error'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^error feishu: the app lacks permission scope im:message, im:message:send_as_bot: send stops/);
  });
});
