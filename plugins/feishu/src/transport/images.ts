import { basename } from 'node:path';
import type * as lark from '@larksuiteoapi/node-sdk';
import { ImageUploads, imageIdOfPlaceholder, readImageBytes, type CardImage, type ExtraCalls } from '@progresscard/core/plugin';
import { IMAGE_FALLBACK_FIELD, type FeishuCard, type FeishuElement } from '../render/payload.js';
import { escapeCardMarkdown } from '../render/markdown/index.js';
import { FeishuApiError } from './classify.js';
import { FEISHU_API_ROUTES } from './routes.js';

/** Feishu's upload limit (image/create doc): 10 MB. */
const FEISHU_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** A card ready to send: placeholders replaced, and the image keys it shows. */
export interface PreparedCard {
  readonly card: FeishuCard;
  readonly imageKeys: readonly string[];
}

/**
 * A card's images on Feishu: each image is uploaded once (`im.v1.image.create`, `image_type:
 * message`, each upload drawn from the channel's budget) and its `image_key` put into the `img`
 * component the renderer drew with a placeholder. An image whose upload failed, or whose key Feishu
 * refused (230099 / 200570), becomes a grey markdown line with its text (`[image: chart.png]`), so
 * the card still goes out.
 */
export class FeishuCardImages {
  readonly #uploads: ImageUploads;

  /** @param imageRoots directories local image paths may be read from (none: no local file is read). */
  constructor(client: lark.Client, imageRoots: readonly string[] = []) {
    this.#uploads = new ImageUploads(async (image) => {
      const bytes = await readImageBytes(image, { maxBytes: FEISHU_MAX_IMAGE_BYTES, imageRoots });
      const fileName = image.source.kind === 'path' ? basename(image.source.path) : `${image.id}.${image.source.mediaType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'png'}`;
      const answer = await FEISHU_API_ROUTES.uploadImage.call(client, { image: bytes, fileName });
      const key = answer.data?.image_key;
      if (!key) throw new FeishuApiError(200, -1, 'image upload answered without data.image_key');
      return key;
    });
  }

  /** `card` with every image placeholder replaced (uploading what was never tried). Never rejects. */
  async prepare(card: FeishuCard, images: readonly CardImage[] | undefined, extraCalls: ExtraCalls | undefined): Promise<PreparedCard> {
    if (!hasImages(card.body.elements)) return { card, imageKeys: [] };
    const refs = await this.#uploads.resolve(images, extraCalls);
    const imageKeys: string[] = [];
    const replace = (elements: readonly FeishuElement[]): FeishuElement[] =>
      elements.map((element) => {
        const id = element.tag === 'img' ? imageIdOfPlaceholder(element.img_key) : undefined;
        if (id === undefined) return Array.isArray(element.elements) ? { ...element, elements: replace(element.elements as FeishuElement[]) } : element;
        const { [IMAGE_FALLBACK_FIELD]: fallback, ...img } = element;
        const key = refs.get(id);
        if (key) {
          imageKeys.push(key);
          return { ...img, img_key: key };
        }
        const text = typeof fallback === 'string' ? fallback : '[image]';
        return { tag: 'markdown', element_id: element.element_id, content: `<font color='grey'>${escapeCardMarkdown(text)}</font>`, text_size: 'notation' };
      });
    return { card: { ...card, body: { ...card.body, elements: replace(card.body.elements) } }, imageKeys };
  }

  /** Feishu refused a card for its image keys: these keys show as text from now on. */
  refuse(imageKeys: readonly string[]): void {
    this.#uploads.refuse(imageKeys);
  }
}

function hasImages(elements: readonly FeishuElement[]): boolean {
  return elements.some((e) => (e.tag === 'img' && imageIdOfPlaceholder(e.img_key) !== undefined) || (Array.isArray(e.elements) && hasImages(e.elements as FeishuElement[])));
}
