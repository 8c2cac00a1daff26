import type { Hono } from 'hono';
import { randomHex } from '../common/ids.js';
import { FEISHU_ROUTES, FeishuErrors, type FeishuError } from './codes.js';
import type { FeishuContext } from './context.js';
import type { StoredReaction } from './types.js';
import { runCall, type FeishuOutcome, type UploadedFile } from './pipeline.js';

/**
 * Emoji types the emulator accepts in `reaction_type.emoji_type`: a subset of Feishu's list
 * (https://open.feishu.cn/document/server-docs/im-v1/message-reaction/emojis-introduce; names are
 * case-sensitive). UNCONFIRMED beyond the names open-source Feishu bots use (`Typing`, `OnIt`, `OK`…).
 */
export const FEISHU_EMOJI_TYPES: readonly string[] = [
  'OK', 'THUMBSUP', 'THANKS', 'MUSCLE', 'FINGERHEART', 'APPLAUSE', 'FISTBUMP', 'JIAYI', 'DONE', 'SMILE',
  'HEART', 'LAUGH', 'CLAP', 'PRAY', 'PARTY', 'FIRE', 'THINKING', 'SURPRISED', 'CRY', 'Get', 'LGTM',
  'Typing', 'OnIt', 'OneSecond', 'Hourglass', 'CheckMark', 'CrossMark',
];

/** Feishu's upload limit: 10 MB, no empty image (image/create doc). */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Image formats the upload accepts (image/create doc: JPG, PNG, WEBP, GIF, BMP, ICO, TIFF, HEIC), by their file signatures. */
const IMAGE_SIGNATURES: readonly { readonly at: number; readonly bytes: readonly number[] }[] = [
  { at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { at: 0, bytes: [0xff, 0xd8, 0xff] },
  { at: 0, bytes: [0x47, 0x49, 0x46, 0x38] },
  { at: 8, bytes: [0x57, 0x45, 0x42, 0x50] },
  { at: 0, bytes: [0x42, 0x4d] },
  { at: 0, bytes: [0x00, 0x00, 0x01, 0x00] },
  { at: 0, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { at: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { at: 4, bytes: [0x66, 0x74, 0x79, 0x70] },
];

function isImage(bytes: Uint8Array): boolean {
  return IMAGE_SIGNATURES.some(({ at, bytes: signature }) => signature.every((byte, index) => bytes[at + index] === byte));
}

const reject = (error: FeishuError, key?: string): FeishuOutcome => ({ ok: false, error, key });

/** Image keys in a card (every `img_key` of any component, nested ones included). */
function imageKeysOf(card: unknown): string[] {
  const keys: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [field, inner] of Object.entries(value)) {
        if (field === 'img_key' && typeof inner === 'string') keys.push(inner);
        else walk(inner);
      }
    }
  };
  walk(card);
  return keys;
}

/** The first `img_key` of `card` that `appId` did not upload (Feishu refuses the card: 230099 / 200570). */
export function unknownImageKey(ctx: FeishuContext, card: unknown, appId: string): FeishuError | undefined {
  for (const key of imageKeysOf(card)) {
    const image = ctx.images.get(key);
    if (!image || image.appId !== appId) return FeishuErrors.invalidImageKey(key);
  }
  return undefined;
}

/** `file_type` values `im.v1.file.create` takes. */
const FILE_TYPES: readonly string[] = ['opus', 'mp4', 'pdf', 'doc', 'xls', 'ppt', 'stream'];
/** 30 MB: the largest file `im.v1.file.create` takes. */
const MAX_FILE_BYTES = 30 * 1024 * 1024;

/**
 * Image upload (`POST /open-apis/im/v1/images`, multipart `image_type` + `image` → `data.image_key`)
 * and message reactions (`POST …/reactions` with `reaction_type.emoji_type` → `data.reaction_id`,
 * `DELETE …/reactions/:reaction_id`; an app removes only its own reactions).
 */
export function mountResourceRoutes(app: Hono, ctx: FeishuContext): void {
  app.post('/open-apis/im/v1/images', (c) =>
    runCall(ctx, c, { route: FEISHU_ROUTES.imageCreate, auth: true, multipart: true }, ({ body, appId }) => {
      const imageType = body?.image_type;
      if (imageType !== 'message' && imageType !== 'avatar') return reject(FeishuErrors.invalidImage(`image_type ${JSON.stringify(imageType ?? null)}`));
      const file = body?.image as UploadedFile | undefined;
      if (!file || typeof file !== 'object' || !('bytes' in file)) return reject(FeishuErrors.invalidImage('image is missing'));
      if (file.bytes.length === 0 || file.bytes.length > MAX_IMAGE_BYTES) return reject(FeishuErrors.invalidImage(`image size ${file.bytes.length} bytes`));
      if (!isImage(file.bytes)) return reject(FeishuErrors.unrecognisedImage());
      const imageKey = `img_v3_${randomHex(24)}`;
      ctx.images.set(imageKey, { imageKey, appId, imageType, size: file.bytes.length, contentType: file.type, uploadedAt: ctx.clock() });
      return { ok: true, key: imageKey, fields: { data: { image_key: imageKey } } };
    }),
  );

  // File upload: `file_type` one of opus/mp4/pdf/doc/xls/ppt/stream, `file_name`, `file`; 30 MB at
  // most and not empty (https://open.feishu.cn/document/server-docs/im-v1/file/create). The
  // refusal codes are UNCONFIRMED (the doc's error table was not checked): 234001 like images.
  app.post('/open-apis/im/v1/files', (c) =>
    runCall(ctx, c, { route: FEISHU_ROUTES.fileCreate, auth: true, multipart: true }, ({ body, appId }) => {
      const fileType = body?.file_type;
      if (typeof fileType !== 'string' || !FILE_TYPES.includes(fileType)) return reject(FeishuErrors.invalidImage(`file_type ${JSON.stringify(fileType ?? null)}`));
      const fileName = body?.file_name;
      if (typeof fileName !== 'string' || fileName === '') return reject(FeishuErrors.invalidImage('file_name is missing'));
      const file = body?.file as UploadedFile | undefined;
      if (!file || typeof file !== 'object' || !('bytes' in file)) return reject(FeishuErrors.invalidImage('file is missing'));
      if (file.bytes.length === 0 || file.bytes.length > MAX_FILE_BYTES) return reject(FeishuErrors.invalidImage(`file size ${file.bytes.length} bytes`));
      const fileKey = `file_v3_${randomHex(24)}`;
      ctx.files.set(fileKey, { fileKey, appId, fileType, fileName, bytes: file.bytes, uploadedAt: ctx.clock() });
      return { ok: true, key: fileKey, fields: { data: { file_key: fileKey } } };
    }),
  );

  app.post('/open-apis/im/v1/messages/:message_id/reactions', (c) => {
    const messageId = c.req.param('message_id');
    return runCall(ctx, c, { route: FEISHU_ROUTES.reactionCreate, auth: true, key: messageId }, ({ body, appId }) => {
      const message = ctx.messages.get(messageId);
      if (!message) return reject(FeishuErrors.invalidParam(`message_id ${messageId} not found`), messageId);
      if (message.state === 'recalled') return reject(FeishuErrors.recalled(), messageId);
      if (message.state === 'deleted') return reject(FeishuErrors.deleted(), messageId);
      const emojiType = (body?.reaction_type as { emoji_type?: unknown } | undefined)?.emoji_type;
      if (typeof emojiType !== 'string' || !FEISHU_EMOJI_TYPES.includes(emojiType)) return reject(FeishuErrors.invalidReactionType(String(emojiType)), messageId);
      const reaction: StoredReaction = { reactionId: `ZCaCIjUBVVWSrm5L-3ZTw${randomHex(12)}`, messageId, emojiType, appId, at: ctx.clock() };
      ctx.reactions.set(reaction.reactionId, reaction);
      return {
        ok: true,
        key: messageId,
        fields: { data: { reaction_id: reaction.reactionId, operator: { operator_id: appId, operator_type: 'app' }, action_time: String(reaction.at), reaction_type: { emoji_type: emojiType } } },
      };
    });
  });

  app.delete('/open-apis/im/v1/messages/:message_id/reactions/:reaction_id', (c) => {
    const messageId = c.req.param('message_id');
    const reactionId = c.req.param('reaction_id');
    return runCall(ctx, c, { route: FEISHU_ROUTES.reactionDelete, auth: true, key: messageId }, ({ appId }) => {
      const message = ctx.messages.get(messageId);
      if (message?.state === 'recalled') return reject(FeishuErrors.recalled(), messageId);
      if (message?.state === 'deleted') return reject(FeishuErrors.deleted(), messageId);
      const reaction = ctx.reactions.get(reactionId);
      if (!reaction || reaction.messageId !== messageId || reaction.appId !== appId) return reject(FeishuErrors.reactionNotFound(), messageId);
      ctx.reactions.delete(reactionId);
      return {
        ok: true,
        key: messageId,
        fields: { data: { reaction_id: reactionId, operator: { operator_id: appId, operator_type: 'app' }, action_time: String(ctx.clock()), reaction_type: { emoji_type: reaction.emojiType } } },
      };
    });
  });
}
