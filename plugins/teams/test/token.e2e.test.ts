import { createProgressCards } from '@progresscard/core';
import { recordingLogger } from '@progresscard/core/testing';
import { DEFAULT_TEAMS_BOT, startTeamsEmulator, type TeamsEmulator } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamsTokenSource } from '../src/transport/token.js';
import { ROOMY_WINDOWS, shownText, teamsOn } from './harness.js';

let emulator: TeamsEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('Teams bot token (client credentials)', () => {
  it('is fetched once for concurrent calls, reused, and fetched again five minutes before expires_in runs out', async () => {
    emulator = await startTeamsEmulator();
    let now = 1_000_000;
    const source = new TeamsTokenSource({ appId: DEFAULT_TEAMS_BOT.appId, appPassword: DEFAULT_TEAMS_BOT.appPassword, tenantId: DEFAULT_TEAMS_BOT.tenantId, loginUrl: emulator.loginUrl, requestTimeoutMs: 5000, now: () => now });
    const [a, b] = await Promise.all([source.get(), source.get()]);
    expect(a).toBe(b);
    now += 54 * 60_000;
    expect(await source.get()).toBe(a);
    now += 2 * 60_000;
    expect(await source.get()).not.toBe(a);
    expect(emulator.calls({ route: 'token' })).toHaveLength(2);
  });

  it('a token revoked mid-run: the 401 refreshes it once and the card ends with its answer; a wrong secret stops the channel', async () => {
    emulator = await startTeamsEmulator({ limits: { perConversationWindows: ROOMY_WINDOWS } });
    const cards = createProgressCards({ channels: [teamsOn(emulator, { tickMs: 100, debounceMs: 100, perCardIntervalMs: 50, conversationBudget: ROOMY_WINDOWS })], logger: recordingLogger(), env: {} });
    const card = cards.open('teams', undefined, { locale: 'en' });
    card.start({ title: 'Build' });
    card.toolStarted('t1', 'shell', { command: 'make' });
    for (let i = 0; i < 200 && emulator.activities().length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    emulator.auth.expireAll();
    card.complete('BUILD-OK');
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed', freshMessage: false });
    await cards.shutdown();
    expect(shownText(emulator.activities()[0]!)).toContain('BUILD-OK');
    expect(emulator.calls({ route: 'token' }).filter((c) => c.outcome === 'accepted')).toHaveLength(2);

    const wrong = createProgressCards({ channels: [teamsOn(emulator, { appPassword: 'not-the-secret' })], logger: recordingLogger(), env: {} });
    const refused = wrong.open('teams', undefined, { locale: 'en' });
    refused.complete('never shown');
    const final = await refused.finalDelivery;
    expect(final).toMatchObject({ ok: false });
    expect(final.error).toMatch(/^teams credentials refused/);
    await wrong.shutdown();
  });
});
