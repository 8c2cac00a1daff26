import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImageUploads } from '../../src/plugin/index.js';
import { MAX_CARD_IMAGES, type CardImage } from '../../src/index.js';
import { takeAnswerImages } from '../../src/card/images.js';
import { viewAfterEvents } from '../../src/testing/index.js';
import { settle, setup } from '../helpers.js';

afterEach(() => vi.useRealTimers());

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==';

describe('images in the answer', () => {
  it('takes data-URI and local-path images out of the text, keeps image URLs for the renderer', () => {
    const { text, images } = takeAnswerImages(`A ![chart](data:image/png;base64,${PNG}) B ![plot](out/plot.png) C ![logo](https://x.test/l.png)`);
    expect(text).toBe('A  B  C ![logo](https://x.test/l.png)');
    expect(images.map((image) => [image.alt, image.source.kind, image.origin])).toEqual([
      ['chart', 'base64', 'answer'],
      ['plot', 'path', 'answer'],
    ]);
  });

  it('hides a data-URI image still streaming in, so no half base64 shows', () => {
    expect(takeAnswerImages(`Here: ![chart](data:image/png;base64,${PNG.slice(0, 30)}`).text).toBe('Here: ');
  });

  it('an image without alt text is named by its file name', () => {
    expect(takeAnswerImages('![](C:\\shots\\login.png)').images[0]!.alt).toBe('login.png');
  });
});

describe('images on the card view', () => {
  it('tool result images come first, each once, then the answer\'s; the base64 never reaches the answer', () => {
    const view = viewAfterEvents([
      { type: 'run.started' },
      { type: 'tool.started', callId: 'a', name: 'screenshot' },
      { type: 'tool.finished', callId: 'a', images: [{ data: PNG, mediaType: 'image/png', alt: 'page' }] },
      { type: 'tool.started', callId: 'b', name: 'screenshot' },
      { type: 'tool.finished', callId: 'b', images: [{ data: PNG, mediaType: 'image/png', alt: 'same page' }] },
      { type: 'run.completed', answer: 'See ![plot](plot.png).' },
    ]);
    expect(view.images.map((image: CardImage) => image.alt)).toEqual(['page', 'plot']);
    expect(view.answer).toBe('See .');
  });

  it(`shows at most ${MAX_CARD_IMAGES} images`, () => {
    const paths = Array.from({ length: MAX_CARD_IMAGES + 3 }, (_, i) => ({ path: `shot-${i}.png` }));
    const view = viewAfterEvents([{ type: 'run.started' }, { type: 'tool.finished', callId: 'a', images: paths }]);
    expect(view.images).toHaveLength(MAX_CARD_IMAGES);
  });

  it('refuses an image that is not one, naming the field', () => {
    const { cards } = setup();
    const card = cards.open('memory');
    const result = card.push({ type: 'tool.finished', callId: 'a', images: [{ data: PNG, mediaType: 'text/html' }] });
    expect(result).toMatchObject({ accepted: false, reason: 'invalid' });
    expect(String((result as { error: Error }).error.message)).toMatch(/images/);
  });

  it('the memory channel shows them as text on the card', async () => {
    const { channel, cards } = setup();
    const card = cards.open('memory', undefined, { locale: 'en' });
    card.start({ title: 'x', locale: 'en' });
    card.push({ type: 'tool.finished', callId: 'a', images: [{ path: 'shot.png' }] });
    card.complete();
    await card.finalDelivery;
    await settle(100);
    expect(channel.messages.get('m1')!.history.at(-1)!.images).toEqual(['[image: shot.png]']);
  });
});

describe('ImageUploads (the upload cache transports share)', () => {
  const image = (id: string): CardImage => ({ id, alt: id, source: { kind: 'path', path: `${id}.png` }, origin: 'tool' });

  it('uploads each image once, each after drawing budget, and answers its reference', async () => {
    const upload = vi.fn(async (i: CardImage) => `key-${i.id}`);
    const acquire = vi.fn(async () => undefined);
    const uploads = new ImageUploads(upload);
    const first = await uploads.resolve([image('img_1'), image('img_2')], { acquire });
    const again = await uploads.resolve([image('img_1')], { acquire });
    expect([...first.values()]).toEqual(['key-img_1', 'key-img_2']);
    expect(again.get('img_1')).toBe('key-img_1');
    expect(upload).toHaveBeenCalledTimes(2);
    expect(acquire).toHaveBeenCalledWith('image-upload');
  });

  it('a failed upload is not retried and resolves to no reference; a refused key shows as text from then on', async () => {
    const uploads = new ImageUploads(async (i) => {
      if (i.id === 'img_bad') throw new Error('too large');
      return `key-${i.id}`;
    });
    const refs = await uploads.resolve([image('img_bad'), image('img_ok')], undefined);
    expect(refs.get('img_bad')).toBeUndefined();
    expect(uploads.fallbackReason('img_bad')).toBe('upload-failed');
    expect(uploads.refuse(['key-img_ok'])).toBe(1);
    expect((await uploads.resolve([image('img_ok')], undefined)).get('img_ok')).toBeUndefined();
    expect(uploads.fallbackReason('img_ok')).toBe('refused');
  });
});
