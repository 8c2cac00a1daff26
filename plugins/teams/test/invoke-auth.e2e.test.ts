import { createProgressCards } from '@progresscard/core';
import { recordingLogger } from '@progresscard/core/testing';
import { DEFAULT_TEAMS_BOT, startTeamsEmulator, type TeamsEmulator } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamsInvokeEndpoint } from '../src/index.js';
import { ROOMY_WINDOWS, shownText, teamsOn } from './harness.js';
import { setTimeout as sleep } from 'node:timers/promises';

let emulator: TeamsEmulator | undefined;
let shutdown: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await shutdown?.();
  await emulator?.close();
  emulator = undefined;
  shutdown = undefined;
});

async function approvalCard() {
  emulator = await startTeamsEmulator({ limits: { perConversationWindows: ROOMY_WINDOWS } });
  const plugin = teamsOn(emulator, { tickMs: 100, debounceMs: 100, perCardIntervalMs: 50, conversationBudget: ROOMY_WINDOWS, invoke: { port: 0, openIdMetadataUrl: emulator.openIdMetadataUrl } });
  const cards = createProgressCards({ channels: [plugin], logger: recordingLogger(), env: {} });
  shutdown = () => cards.shutdown();
  const card = cards.open('teams', undefined, { locale: 'en' });
  card.start({ title: 'Deploy' });
  const approval = card.requestApproval({ prompt: 'Publish 2.4?' });
  let decided = 0;
  void approval.then(() => (decided += 1));
  const endpoint = plugin.interaction as TeamsInvokeEndpoint;
  for (let i = 0; i < 400 && !(endpoint.url && emulator.activities().some((a) => shownText(a).includes('Approve'))); i += 1) await sleep(25);
  emulator.setBotEndpoint({ url: endpoint.url!, appId: DEFAULT_TEAMS_BOT.appId });
  const activityId = emulator.activities()[0]!.id;
  return { card, approval, activityId, endpoint, decided: () => decided };
}

describe('Teams messaging endpoint: Bot Framework JWT on every click', () => {
  it('refuses a forged token (403) and a request without one (401); the question stays open', async () => {
    const t = await approvalCard();
    const forged = await emulator!.click({ conversationId: DEFAULT_TEAMS_BOT.groupChat, activityId: t.activityId, button: 'Approve', user: { id: '29:1mallory' }, forged: true });
    expect(forged.status).toBe(403);
    const bare = await fetch(t.endpoint.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(forged.invoke) });
    expect(bare.status).toBe(401);
    await sleep(200);
    expect(t.decided()).toBe(0);
  });

  it('refuses a valid signature whose serviceUrl claim names another service', async () => {
    const t = await approvalCard();
    const first = await emulator!.click({ conversationId: DEFAULT_TEAMS_BOT.groupChat, activityId: t.activityId, button: 'Nope', user: { id: '29:1x' } });
    expect(first.error).toBe('no-such-button');
    const token = await emulator!.auth.inboundToken({ appId: DEFAULT_TEAMS_BOT.appId, serviceUrl: 'https://smba.example.invalid/' });
    const invoke = { type: 'invoke', name: 'adaptiveCard/action', id: 'f:1', channelId: 'msteams', serviceUrl: emulator!.serviceUrl, from: { id: '29:1x' }, value: { action: { type: 'Action.Execute', verb: 'progresscard.stop', data: { cardId: 'x', interactionId: 'stop' } } } };
    const answer = await fetch(t.endpoint.url!, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(invoke) });
    expect(answer.status).toBe(403);
  });

  it('a signed click decides once and answers the card; the same invoke replayed decides nothing again', async () => {
    const t = await approvalCard();
    const click = await emulator!.click({ conversationId: DEFAULT_TEAMS_BOT.groupChat, activityId: t.activityId, button: 'Approve', user: { id: '29:1owner', name: 'Owner' } });
    expect(click.status).toBe(200);
    expect(click.body).toMatchObject({ statusCode: 200 });
    await expect(t.approval).resolves.toMatchObject({ approved: true, by: { id: '29:1owner' } });
    const replay = await emulator!.click({ conversationId: DEFAULT_TEAMS_BOT.groupChat, activityId: t.activityId, button: 'Approve', user: { id: '29:1owner' }, replayOf: click });
    expect(replay.status).toBe(200);
    await sleep(200);
    expect(t.decided()).toBe(1);
    t.card.complete('done');
    await t.card.finalDelivery;
    // One decision line on the card, not two.
    expect(shownText(emulator!.activities()[0]!).match(/✅ Approve/g)).toHaveLength(1);
  });
});
