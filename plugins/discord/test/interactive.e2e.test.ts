import type { ProgressCard } from '@progresscard/core';
import type { DiscordMessageSnapshot } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordInteractions } from '../src/index.js';
import { harness, waitFor, type Harness } from './harness.js';

// Discord buttons: the plugin serves the interactions endpoint, the emulator POSTs Ed25519-signed
// MESSAGE_COMPONENT interactions to it over loopback and applies the answers.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Row = { components: { label: string; custom_id: string }[] };
const buttonsOf = (m: DiscordMessageSnapshot | undefined) => ((m?.components ?? []) as Row[]).flatMap((row) => row.components);
const descriptionOf = (m: DiscordMessageSnapshot | undefined) => String(((m?.embeds ?? [])[0] as { description?: string } | undefined)?.description ?? '');

describe('interactive cards on Discord: buttons through the verified interactions endpoint', () => {
  it('approve: answered at once with a deferred update; the card shows who decided and loses its buttons', async () => {
    const t = await started();
    const card = open(t);
    const decision = card.requestApproval({ prompt: 'Run `npm publish`?' });
    const message = await shown(t, 'Approve');
    for (const button of buttonsOf(message)) expect(button.custom_id.length).toBeLessThanOrEqual(100);
    const clicked = await t.emulator.click({ messageId: message.id, button: 'Approve', userId: '42', userName: 'bob' });
    expect(clicked).toMatchObject({ status: 200, late: false, response: { type: 6 } });
    await expect(decision).resolves.toMatchObject({ approved: true, by: { id: '42', name: 'bob' } });
    const now = await waitFor(() => {
      const m = t.emulator.message(message.id);
      return m && buttonsOf(m).length === 0 && m;
    }, 'the decided card');
    expect(descriptionOf(now)).toContain('✅ Approve · bob');
  });

  it('first click wins and the owner check: others hear it privately (ephemeral), the decision stands', async () => {
    const t = await started();
    const card = open(t, '42');
    const decision = card.requestApproval({ prompt: 'Drop the table?' });
    const message = await shown(t, 'Deny');
    const stranger = await t.emulator.click({ messageId: message.id, button: 'Approve', userId: '9' });
    expect(stranger.response).toMatchObject({ type: 4, data: { flags: 64 } });
    await t.emulator.click({ messageId: message.id, button: 'Deny', userId: '42' });
    // the buttons may already be gone from the message: press the one the user's client still shows
    const late = await t.emulator.click({ messageId: message.id, button: 'Approve', userId: '42' }).catch(() => ({ error: 'no-such-button' as const }));
    if ('response' in late) expect(late.response).toMatchObject({ type: 4, data: { flags: 64, content: expect.stringMatching(/already/i) } });
    await expect(decision).resolves.toMatchObject({ approved: false, optionId: 'deny', by: { id: '42' } });
  });

  it('stop: the handler runs and the card ends cancelled', async () => {
    const t = await started();
    const card = open(t);
    const stoppedBy: string[] = [];
    card.onStop((user) => void stoppedBy.push(user.id));
    card.toolStarted('c1', 'shell', { command: 'sleep 600' });
    const message = await shown(t, '⏹ Stop');
    await t.emulator.click({ messageId: message.id, button: '⏹ Stop', userId: '42' });
    expect(stoppedBy).toEqual(['42']);
    await expect(card.finalDelivery).resolves.toMatchObject({ ok: true, status: 'cancelled' });
  });

  it('a request signed with another key is refused with 401 and changes nothing', async () => {
    const t = await started();
    const card = open(t);
    const decision = card.requestApproval({ prompt: 'Ship it?' });
    const message = await shown(t, 'Approve');
    expect(await t.emulator.click({ messageId: message.id, button: 'Approve', userId: '42', forgeSignature: true })).toMatchObject({ status: 401 });
    expect(buttonsOf(t.emulator.message(message.id)).map((b) => b.label)).toContain('Approve');
    card.complete();
    await expect(decision).resolves.toMatchObject({ timedOut: true });
  });
});

/** A harness whose plugin verifies clicks with the emulator's public key. */
async function started(): Promise<Harness> {
  h = await harness({ interactive: true });
  return h;
}

function open(t: Harness, requester?: string): ProgressCard {
  const card = t.cards.open('discord', undefined, { locale: 'en', requester: requester ? { id: requester, name: 'Ann' } : undefined });
  card.start({ title: 'Deploy' });
  return card;
}

async function shown(t: Harness, label: string): Promise<DiscordMessageSnapshot> {
  const url = await waitFor(() => (t.plugin.interaction as DiscordInteractions).url, 'the interactions endpoint');
  t.emulator.configureInteractions({ url });
  return waitFor(() => t.emulator.messages().findLast((m) => buttonsOf(m).some((b) => b.label === label)), `a message with "${label}"`);
}
