import { afterEach, describe, expect, it } from 'vitest';
import { createProgressCards, silentLogger } from '@progresscard/core';
import { webhook } from '../src/webhook-channel.js';
import { startWebhookServer, type WebhookServer } from '../src/webhook-server.js';

let server: WebhookServer | undefined;
afterEach(async () => server?.close());

describe('a user-registered channel plugin (webhook example)', () => {
  it('shows a live tool line, then the completed card with its footer', async () => {
    server = await startWebhookServer();
    const cards = createProgressCards({ channels: [webhook({ url: server.url, tickMs: 500 })], logger: silentLogger, env: {} });
    const card = cards.open('webhook', undefined, { title: 'Fix the flaky test', locale: 'en' });
    card.toolStarted('c1', 'shell', { command: 'npm test' });
    // The tick reaches the webhook with the running time advanced (however late the machine runs it).
    const running = () => [...server!.cards.values()].flat().some((v) => v.markdown.includes('shell: `npm test` (running · 1s)'));
    await expect.poll(running, { timeout: 10_000 }).toBe(true);
    card.toolFinished('c1', '212 passed');
    card.complete('All tests pass.');
    const final = await card.finalDelivery;
    const versions = server.cards.get(final.message!.id)!;
    expect(versions.at(-1)!.markdown).toMatch(/shell: `npm test` \(done · 212 passed\)[\s\S]*All tests pass\.[\s\S]*_\ds · /);
    expect(server.cards.size).toBe(1);
  });

  it('classifies its own errors: a 404 sends a fresh card, a 500 is retried', async () => {
    server = await startWebhookServer();
    const cards = createProgressCards({ channels: [webhook({ url: server.url })], logger: silentLogger, env: {}, retry: { finalRetryDelaysMs: [10, 10, 10] } });
    const card = cards.open('webhook', undefined, { title: 'T' });
    card.start({ title: 'T' });
    await cards.idle();
    server.failures.push(500, 404);
    card.complete('done');
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, freshMessage: true });
    expect(server.cards.size).toBe(2);
    expect(server.cards.get(final.message!.id)!.at(-1)!.status).toBe('completed');
  });
});
