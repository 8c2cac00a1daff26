import { createProgressCards } from '@progresscard/core';
import { recordingLogger } from '@progresscard/core/testing';
import { DEFAULT_TEAMS_BOT as BOT, startTeamsEmulator, type TeamsEmulator } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamsInvokeEndpoint } from '../src/index.js';
import { ROOMY_WINDOWS, shownText, teamsOn } from './harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let emulator: TeamsEmulator | undefined;
let shutdown: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await shutdown?.();
  await emulator?.close();
  emulator = undefined;
  shutdown = undefined;
});

/** Waits (real time, loopback) until `check` holds; false after 10 s. */
async function until(check: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < 10_000; waited += 25) {
    if (check()) return true;
    await sleep(25);
  }
  return check();
}

const hasButton = (activity: { attachments: readonly unknown[] }, title: string) => JSON.stringify(activity.attachments).includes(`"title":${JSON.stringify(title)}`);

describe('an open question during a Teams 1:1 stream (emulator over loopback)', { timeout: 60_000 }, () => {
  it.each(['text', 'a tool call only'])('streaming %s: the message that carries the question shows its Action.Execute buttons; a click decides it and the run goes on', async (before) => {
    emulator = await startTeamsEmulator({ limits: { perConversationWindows: ROOMY_WINDOWS } });
    const plugin = teamsOn(emulator, { tickMs: 100, debounceMs: 100, perCardIntervalMs: 50, conversationBudget: ROOMY_WINDOWS, conversationId: BOT.personalChat, invoke: { port: 0, openIdMetadataUrl: emulator.openIdMetadataUrl } });
    const logger = recordingLogger();
    const cards = createProgressCards({ channels: [plugin], logger, env: {} });
    shutdown = () => cards.shutdown();
    const chat = () => emulator!.activities({ conversationId: BOT.personalChat });
    const card = cards.open('teams', undefined, { locale: 'en', requester: { id: '29:1owner', name: 'Owner' } });
    card.start({ title: 'Deploy' });
    if (before === 'text') card.answer('Checking the release. ');
    else card.toolStarted('t1', 'shell', { command: 'git tag -l' });
    expect(await until(() => chat().some((a) => a.stream !== undefined && (before !== 'text' || a.stream.text === 'Checking the release. ')))).toBe(true);
    const approval = card.requestApproval({ prompt: 'Publish 2.4?' });
    // The question shows with its buttons on a message of the chat.
    expect(await until(() => chat().some((a) => hasButton(a, 'Approve')))).toBe(true);
    const asking = chat().find((a) => hasButton(a, 'Approve'))!;
    expect(shownText(asking)).toContain('Publish 2.4?');
    const endpoint = plugin.interaction as TeamsInvokeEndpoint;
    emulator.setBotEndpoint({ url: endpoint.url!, appId: BOT.appId });
    const click = await emulator.click({ conversationId: BOT.personalChat, activityId: asking.id, button: 'Approve', user: { id: '29:1owner', name: 'Owner' } });
    expect(click.status).toBe(200);
    await expect(approval).resolves.toMatchObject({ approved: true, by: { id: '29:1owner' } });
    card.answer('Published.');
    card.complete();
    expect(await card.finalDelivery).toMatchObject({ ok: true, status: 'completed' });
    // The whole answer shows, in order, across what the chat holds; the decision is on the card.
    const shown = chat().map(shownText).join('\n');
    if (before === 'text') expect(shown).toContain('Checking the release.');
    expect(shown).toContain('Published.');
    expect(shown).toMatch(/✅ Approve/);
    expect(emulator.calls().filter((call) => call.outcome !== 'accepted').map((call) => call.msg)).toEqual([]);
    expect(logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
