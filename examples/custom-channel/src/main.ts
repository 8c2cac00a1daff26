// Runs a short scripted agent run through the webhook channel and prints the final card.
import { createProgressCards } from '@progresscard/core';
import { webhook } from './webhook-channel.js';
import { startWebhookServer } from './webhook-server.js';

const server = await startWebhookServer();
const cards = createProgressCards({ channels: [webhook({ url: server.url, tickMs: 1000 })] });
const card = cards.open('webhook', undefined, { title: 'Fix the flaky test', locale: 'en' });

card.toolStarted('c1', 'shell', { command: 'npm test' });
await new Promise((resolve) => setTimeout(resolve, 2500));
card.toolFinished('c1', '212 passed');
card.complete('All tests pass.');

const final = await card.finalDelivery;
console.log(`final delivered: ${final.ok} (${final.attempts} call(s) for the final)`);
console.log(server.cards.get(final.message!.id)!.at(-1)!.markdown);
await cards.shutdown();
await server.close();
