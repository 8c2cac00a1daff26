import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { elementsOf, harness, type Harness } from './harness.js';

/** A 2×2 red PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==', 'base64');

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const imgs = (card: unknown) => elementsOf(card as never).filter((e) => e.tag === 'img');
const imageTexts = (card: unknown) => elementsOf(card as never).filter((e) => /^image_\d+$/.test(e.element_id ?? '') && e.tag === 'markdown').map((e) => e.content);

/** Plays a run whose answer names `answer`'s images; returns the final card message. */
async function run(answer: string) {
  const card = h!.cards.open('feishu', undefined, { locale: 'en' });
  await h!.play(card, [
    { at: 0, type: 'run.started', title: 'Images', locale: 'en' },
    { at: 10, type: 'answer.delta', text: answer },
    { at: 100, type: 'run.completed' },
  ]);
  const final = await card.finalDelivery;
  expect(final.ok).toBe(true);
  return h!.emulator.message(final.message!.id)!;
}

/** A root holding `chart.png`, with a secret PNG beside it (outside the root). */
async function layout() {
  const base = await mkdtemp(join(tmpdir(), 'pc-roots-'));
  const root = join(base, 'root');
  await mkdir(root);
  await writeFile(join(root, 'chart.png'), PNG);
  await writeFile(join(base, 'secret.png'), PNG);
  return { base, root };
}

describe('Feishu: local image paths from agent text are read only inside imageRoots (over loopback)', () => {
  it('without imageRoots a local path shows "[image: alt]": nothing is uploaded', async () => {
    const { root } = await layout();
    h = await harness({ scale: 10 });
    const message = await run(`![chart](${join(root, 'chart.png')}) and ![env](/proc/self/environ)`);
    expect(h.emulator.images()).toEqual([]);
    expect(imgs(message.card)).toEqual([]);
    expect(imageTexts(message.card)).toEqual([expect.stringContaining('[image: chart]'), expect.stringContaining('[image: env]')]);
  });

  it('an image inside the root is shown; traversal, a symlink out of the root, /proc and a non-image file are not uploaded', async () => {
    const { base, root } = await layout();
    await symlink(join(base, 'secret.png'), join(root, 'link.png'));
    await writeFile(join(root, 'notes.png'), 'API_KEY=do-not-upload\n');
    h = await harness({ scale: 10, plugin: { imageRoots: [root, '/proc'] } });
    const traversal = relative(process.cwd(), join(root, '..', 'secret.png'));
    const message = await run(
      [
        `![chart](${join(root, 'chart.png')})`,
        `![up](${join(root, '..', 'secret.png')})`,
        `![rel](${traversal})`,
        `![link](${join(root, 'link.png')})`,
        '![env](/proc/self/environ)',
        `![notes](${join(root, 'notes.png')})`,
      ].join(' '),
    );
    const uploaded = h.emulator.images();
    expect(uploaded).toHaveLength(1);
    expect(uploaded[0]!.size).toBe(PNG.length);
    expect(imgs(message.card)).toEqual([expect.objectContaining({ img_key: uploaded[0]!.imageKey })]);
    expect(imageTexts(message.card)).toEqual(['[image: up]', '[image: rel]', '[image: link]', '[image: env]', '[image: notes]'].map((text) => expect.stringContaining(text)));
  });

  it('a tool result image by path follows the same rule', async () => {
    const { base, root } = await layout();
    h = await harness({ scale: 10, plugin: { imageRoots: [root] } });
    const card = h.cards.open('feishu', undefined, { locale: 'en' });
    await h.play(card, [
      { at: 0, type: 'run.started', title: 'Shots', locale: 'en' },
      { at: 10, type: 'tool.started', callId: 's1', name: 'screenshot' },
      { at: 100, type: 'tool.finished', callId: 's1', images: [{ path: join(base, 'secret.png'), alt: 'outside' }, { path: join(root, 'chart.png'), alt: 'inside' }] },
      { at: 200, type: 'run.completed', answer: 'done' },
    ]);
    const final = await card.finalDelivery;
    const message = h.emulator.message(final.message!.id)!;
    expect(h.emulator.images()).toHaveLength(1);
    expect(imgs(message.card)).toEqual([expect.objectContaining({ alt: { tag: 'plain_text', content: 'inside' } })]);
    expect(imageTexts(message.card)).toEqual([expect.stringContaining('[image: outside]')]);
  });
});
