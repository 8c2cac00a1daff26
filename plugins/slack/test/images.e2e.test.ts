import { afterEach, describe, expect, it } from 'vitest';
import { blockText, harness, type Harness } from './harness.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('Slack: images shown as their text (over loopback)', () => {
  it('a tool result image and an answer image become "[image: …]" lines, the base64 never reaches the message', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('slack');
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Screenshot', locale: 'en' },
      { at: 10, type: 'tool.started', callId: 's1', name: 'screenshot' },
      { at: 100, type: 'tool.finished', callId: 's1', images: [{ data: PNG, mediaType: 'image/png', alt: 'home page' }] },
      { at: 200, type: 'run.completed', answer: 'Done: ![diagram](./docs/diagram.png)' },
    ]);
    const final = await card.finalDelivery;
    expect(final.ok).toBe(true);
    const message = h.emulator.message(final.message!.id)!;
    expect(blockText(message.blocks, 'images')).toBe('[image: home page]  [image: diagram]');
    expect(JSON.stringify(message.blocks)).not.toContain(PNG.slice(0, 16));
    expect(message.history.every((call) => call.outcome === 'accepted')).toBe(true);
  });
});
