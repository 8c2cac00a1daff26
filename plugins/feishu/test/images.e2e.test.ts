import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { elementsOf, harness, type Harness } from './harness.js';

/** A 2×2 red PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const images = (card: unknown) => elementsOf(card as never).filter((e) => e.tag === 'img');
const imageTexts = (card: unknown) => elementsOf(card as never).filter((e) => /^image_\d+$/.test(e.element_id ?? '') && e.tag === 'markdown').map((e) => e.content);

describe('Feishu: images in tool results and answers (over loopback)', () => {
  it('a tool result image is uploaded once and shown as an img component with its image_key', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('feishu');
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Screenshot' },
      { at: 10, type: 'tool.started', callId: 's1', name: 'screenshot' },
      { at: 100, type: 'tool.finished', callId: 's1', summary: 'captured', images: [{ data: PNG, mediaType: 'image/png', alt: 'home page' }] },
      { at: 3_500, type: 'answer.delta', text: 'The page renders.' },
      { at: 3_600, type: 'run.completed' },
    ]);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const uploaded = h.emulator.images();
    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]).toMatchObject({ imageType: 'message', size: Buffer.from(PNG, 'base64').length });
    const message = h.emulator.message(final.message!.id)!;
    expect(images(message.card)).toEqual([expect.objectContaining({ img_key: uploaded[0]!.imageKey, alt: { tag: 'plain_text', content: 'home page' } })]);
    expect(JSON.stringify(message.card)).not.toContain('progresscard');
    expect(message.history.every((call) => call.outcome === 'accepted')).toBe(true);
  });

  it('an answer with a data-URI image shows the image and not the base64 text', async () => {
    h = await harness({ scale: 10 });
    const card = h.cards.open('feishu');
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Chart' },
      { at: 10, type: 'answer.delta', text: `Here is the chart:\n\n![sales chart](data:image/png;base64,${PNG})\n\nSales doubled.` },
      { at: 100, type: 'run.completed' },
    ]);
    const message = h.emulator.message((await card.finalDelivery).message!.id)!;
    expect(images(message.card)).toHaveLength(1);
    expect(JSON.stringify(message.card)).not.toContain(PNG.slice(0, 20));
    expect(JSON.stringify(message.card)).toContain('Sales doubled.');
  });

  it('a local image path inside imageRoots is uploaded; a missing file shows "[image: …]" and the card still goes out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pc-img-'));
    h = await harness({ scale: 10, plugin: { imageRoots: [dir] } });
    const path = join(dir, 'plot.png');
    await writeFile(path, Buffer.from(PNG, 'base64'));
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Plot', locale: 'en' },
      { at: 10, type: 'answer.delta', text: `![plot](${path}) and ![missing](${join(dir, 'nope.png')})` },
      { at: 100, type: 'run.completed' },
    ]);
    const final = await card.finalDelivery;
    expect(final.ok).toBe(true);
    const message = h.emulator.message(final.message!.id)!;
    expect(images(message.card)).toHaveLength(1);
    expect(imageTexts(message.card)).toEqual([expect.stringContaining('[image: missing]')]);
  });

  it('an upload the platform refuses degrades to the text, with no rejected card', async () => {
    h = await harness({ scale: 10 });
    h.emulator.faults.add({ route: 'im.image.create', respond: { status: 400, body: { code: 234001, msg: 'Invalid request param.' } } });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Refused upload', locale: 'en' },
      { at: 10, type: 'tool.started', callId: 's1', name: 'screenshot' },
      { at: 100, type: 'tool.finished', callId: 's1', images: [{ data: PNG, mediaType: 'image/png', alt: 'login form' }] },
      { at: 200, type: 'run.completed', answer: 'done' },
    ]);
    const message = h.emulator.message((await card.finalDelivery).message!.id)!;
    expect(images(message.card)).toHaveLength(0);
    expect(imageTexts(message.card)).toEqual([expect.stringContaining('[image: login form]')]);
    expect(message.history.every((call) => call.outcome === 'accepted')).toBe(true);
  });

  it('a key Feishu no longer accepts (230099 / 200570): the update is sent again without the image, the card is not stuck', async () => {
    // 230099 is the IM patch's answer: the card here is a patched IM card.
    h = await harness({ scale: 10, plugin: { mode: 'message' } });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Expired key', locale: 'en' },
      { at: 10, type: 'tool.started', callId: 's1', name: 'screenshot' },
      { at: 100, type: 'tool.finished', callId: 's1', images: [{ data: PNG, mediaType: 'image/png', alt: 'dashboard' }] },
    ]);
    await h.until(3_500);
    await h.cards.idle();
    const [image] = h.emulator.images();
    expect(image).toBeDefined();
    h.emulator.forgetImage(image!.imageKey);
    await h.play(card, [{ at: 3_600, type: 'run.completed', answer: 'All good.' }]);
    const final = await card.finalDelivery;
    expect(final).toMatchObject({ ok: true, status: 'completed' });
    const message = h.emulator.message(final.message!.id)!;
    const refused = message.history.filter((call) => call.outcome === 'rejected');
    expect(refused).toEqual([expect.objectContaining({ code: 230099, msg: expect.stringContaining('200570') })]);
    expect(message.card).toMatchObject({ header: { template: 'green' } });
    expect(images(message.card)).toHaveLength(0);
    expect(imageTexts(message.card)).toEqual([expect.stringContaining('[image: dashboard]')]);
    expect(JSON.stringify(message.card)).toContain('All good.');
  });
});
