import { DEFAULT_TEAMS_BOT as BOT } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { inProcess, type InProcess } from './in-process.js';

let t: InProcess | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('Teams completion ping (in process, fake time)', () => {
  it('mentions the requester: an <at> tag in the text and a mention entity with their Teams id, replying to the card', async () => {
    t = inProcess();
    const card = t.cards.open('teams', undefined, { requester: { id: '29:1ana-aad', name: 'Ana <Ops>' }, completionPing: { afterMs: 0 } });
    card.start({ title: 'Rotate the keys' });
    card.answer('Keys rotated.');
    card.complete();
    const final = await t.settle(card.finalDelivery);
    expect(final).toMatchObject({ ok: true });
    await t.time.advance(5_000);
    const ping = t.emulator.activities({ conversationId: BOT.groupChat }).find((a) => a.replyToId === final.message!.id);
    expect(ping).toBeDefined();
    expect(ping!.text).toMatch(/^<at>Ana &lt;Ops&gt;<\/at> \S/);
    const request = t.emulator.calls({ key: ping!.id }).find((call) => call.route === 'replyToActivity')?.request as { entities?: unknown } | undefined;
    expect(request?.entities).toEqual([{ type: 'mention', text: '<at>Ana &lt;Ops&gt;</at>', mentioned: { id: '29:1ana-aad', name: 'Ana <Ops>' } }]);
  });
});
