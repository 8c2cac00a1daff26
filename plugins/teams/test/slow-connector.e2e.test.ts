import { createProgressCards } from '@progresscard/core';
import { recordingLogger } from '@progresscard/core/testing';
import { DEFAULT_TEAMS_BOT as BOT, startTeamsEmulator, type TeamsEmulator } from '@progresscard/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { shownText, teamsOn } from './harness.js';

let emulator: TeamsEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const CONNECTOR_ROUTES = ['sendToConversation', 'updateActivity', 'replyToActivity', 'deleteActivity'] as const;

// Last session's run: 20 cards in one group chat over a connector answering in 1.5 s met 5 × 429. The
// emulator counted each call when it answered; it now counts on arrival as Teams does, and the plugin
// counts a call when it leaves, held later by how much slower its round trip was than the fastest (a
// burst's first calls open fresh connections and reach Teams late). Teams' documented windows throughout.
describe('20 cards in one Teams group chat over a slow Bot Connector (emulator over loopback, documented windows)', { timeout: 180_000 }, () => {
  it.each([1500, 0])('connector answering after %i ms: no 429, every card posted once and completed with its own answer', async (latencyMs) => {
    emulator = await startTeamsEmulator();
    if (latencyMs > 0) for (const route of CONNECTOR_ROUTES) emulator.faults.add({ route, latencyMs });
    const logger = recordingLogger();
    const cards = createProgressCards({ channels: [teamsOn(emulator)], logger, env: {} });
    const opened = Array.from({ length: 20 }, () => cards.open('teams', undefined, { locale: 'en' }));
    for (const [i, card] of opened.entries()) {
      card.start({ title: `Job ${i}` });
      card.toolStarted(`c${i}`, 'shell', { command: `make job-${i}` });
    }
    // Every card waits for its first post, then answers, so each has a send and an update or more.
    const chat = () => emulator!.activities({ conversationId: BOT.groupChat });
    while (chat().length < opened.length) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const [i, card] of opened.entries()) {
      card.answer(`Job ${i} `);
      card.toolFinished(`c${i}`, 'ok');
      card.answer('is done.');
      card.complete();
    }
    const finals = await Promise.all(opened.map((card) => card.finalDelivery));
    await cards.shutdown();
    expect(finals.map((final) => final.status)).toEqual(opened.map(() => 'completed'));
    expect(finals.every((final) => final.ok)).toBe(true);
    expect(emulator.calls().filter((call) => call.status === 429).map((call) => `${call.route} received ${call.receivedAt}`)).toEqual([]);
    const messages = chat();
    expect(messages).toHaveLength(20);
    for (const [i] of opened.entries()) expect(messages.filter((m) => shownText(m).includes(`Job ${i} is done.`))).toHaveLength(1);
    expect(logger.entries.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
