import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { startFeishuEmulator, type FeishuEmulator } from '../src/index.js';
import { sdkClient, sdkFailure } from './feishu-client.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==', 'base64');

/** A file part as the SDK sends one: a stream with a `path` (a Buffer would go as a text field). */
const filePart = (bytes: Buffer) => Object.assign(Readable.from([bytes]), { path: 'upload.png' }) as unknown as Buffer;

let emulator: FeishuEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('Feishu emulator: image upload (over loopback)', () => {
  it('takes image bytes and refuses bytes that are no image format Feishu reads', async () => {
    emulator = await startFeishuEmulator({ apps: [{ appId: 'cli_img', appSecret: 'secret' }] });
    const client = sdkClient(emulator);
    const accepted = await client.im.image.create({ data: { image_type: 'message', image: filePart(PNG) } });
    expect(accepted?.image_key).toMatch(/^img_v3_/);
    const refused = await sdkFailure(client.im.image.create({ data: { image_type: 'message', image: filePart(Buffer.from('SECRET=1\nPATH=/usr/bin\n')) } }));
    expect(refused).toMatchObject({ code: 234011 });
    expect(emulator.images()).toHaveLength(1);
  });
});
