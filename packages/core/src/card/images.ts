import { createHash } from 'node:crypto';
import type { ImageInput } from '../events/contract.js';
import { oneLine, wellFormed } from './format/text.js';

/** Where the bytes of a card image come from: base64 data with its media type, or a local file. */
export type CardImageSource =
  | { readonly kind: 'base64'; readonly mediaType: string; readonly data: string }
  | { readonly kind: 'path'; readonly path: string };

/**
 * An image the card shows: from a tool call's result (`tool.finished` `images`) or from the
 * answer's markdown (`![alt](data:image/png;base64,…)` or `![alt](./local/file.png)`; image URLs
 * stay links). A channel uploads it through its image API and shows it, or shows `alt` in its place.
 */
export interface CardImage {
  /** Stable: equal sources have equal ids (`img_` + 16 hex of a SHA-256 of the source). */
  readonly id: string;
  /** One line, at most 100 characters: the image's alt text, else its file name, else `image`. */
  readonly alt: string;
  readonly source: CardImageSource;
  /** `tool`: returned by a tool call; `answer`: written in the answer. */
  readonly origin: 'tool' | 'answer';
}

/** Most images one card shows; later ones are left out (the card stays within platform element limits). */
export const MAX_CARD_IMAGES = 8;

/** A markdown image whose target is a data URI or a local path (not `http(s):`, not another scheme). */
const MARKDOWN_IMAGE = /!\[([^\]\n]*)\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+"[^"\n]*")?\s*\)/g;
const DATA_URI = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)$/;
/** The start of a data-URI image still arriving (streamed answer): hidden until it is complete. */
const PARTIAL_DATA_IMAGE = /!\[[^\]\n]*\]\(\s*data:[^)]*$/;

function imageId(source: CardImageSource): string {
  const hash = createHash('sha256');
  if (source.kind === 'base64') hash.update(`b64:${source.mediaType}:`).update(source.data);
  else hash.update(`path:${source.path}`);
  return `img_${hash.digest('hex').slice(0, 16)}`;
}

function altText(alt: string | undefined, source: CardImageSource): string {
  const given = alt?.trim();
  if (given) return oneLine(wellFormed(given), 100);
  if (source.kind === 'path') return oneLine(source.path.split(/[\\/]/).pop() || 'image', 100);
  return 'image';
}

/** A tool result's image as the card keeps it. */
function cardImageFromInput(input: ImageInput): CardImage {
  const source: CardImageSource = 'data' in input
    ? { kind: 'base64', mediaType: input.mediaType, data: input.data.replace(/\s+/g, '') }
    : { kind: 'path', path: input.path };
  return { id: imageId(source), alt: altText(input.alt, source), source, origin: 'tool' };
}

/** The answer with its data-URI and local-path images taken out, and those images in order. */
export interface AnswerImages {
  readonly text: string;
  readonly images: readonly CardImage[];
}

/**
 * Takes the images out of an answer's markdown: `![alt](data:image/png;base64,…)` and
 * `![alt](path/to/file.png)` leave the text (the card shows them as images); `http(s)` image URLs
 * and other schemes stay for the renderer (which makes them links). An image still streaming in
 * (an unclosed data URI at the end) is hidden until complete.
 */
export function takeAnswerImages(answer: string): AnswerImages {
  if (!answer.includes('![')) return { text: answer, images: [] };
  const images: CardImage[] = [];
  const text = answer
    .replace(MARKDOWN_IMAGE, (whole, alt: string, rawTarget: string) => {
      const target = rawTarget.startsWith('<') ? rawTarget.slice(1, -1).trim() : rawTarget;
      const data = DATA_URI.exec(target);
      let source: CardImageSource;
      if (data) source = { kind: 'base64', mediaType: data[1]!, data: data[2]!.replace(/\s+/g, '') };
      else if (/^[a-z][a-z0-9+.-]*:/i.test(target) && !/^[a-z]:[\\/]/i.test(target)) return whole;
      else source = { kind: 'path', path: target };
      images.push({ id: imageId(source), alt: altText(alt, source), source, origin: 'answer' });
      return '';
    })
    .replace(PARTIAL_DATA_IMAGE, '');
  return { text, images };
}

/** Images of a card: tool results' in arrival order, one per id. */
export class ToolImages {
  private readonly byId = new Map<string, CardImage>();

  /** Adds a tool result's images; returns true when the card gained one. */
  add(inputs: readonly ImageInput[]): boolean {
    let added = false;
    for (const input of inputs) {
      const image = cardImageFromInput(input);
      if (this.byId.has(image.id)) continue;
      this.byId.set(image.id, image);
      added = true;
    }
    return added;
  }

  list(): readonly CardImage[] {
    return [...this.byId.values()];
  }
}

/** Tool images then answer images, one per id, at most {@link MAX_CARD_IMAGES}. */
export function cardImages(tool: readonly CardImage[], answer: readonly CardImage[]): readonly CardImage[] {
  const seen = new Set<string>();
  const out: CardImage[] = [];
  for (const image of [...tool, ...answer]) {
    if (seen.has(image.id) || out.length >= MAX_CARD_IMAGES) continue;
    seen.add(image.id);
    out.push(image);
  }
  return out;
}
