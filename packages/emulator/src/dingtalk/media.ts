import type { Hono } from 'hono';
import { randomHex, type Clock } from '../common/index.js';
import type { DingTalkTokenRegistry } from './tokens.js';

/**
 * The old-style host's (`https://oapi.dingtalk.com`) routes a robot needs to send a file:
 * `GET /gettoken?appkey=&appsecret=` (https://open.dingtalk.com/document/development/obtain-orgapp-token)
 * and `POST /media/upload?access_token=&type=file` with the file in the multipart field `media`
 * (https://open.dingtalk.com/document/orgapp/upload-media-files), answering
 * `{errcode: 0, errmsg: 'ok', media_id, type, created_at}`. Errors come as a non-zero `errcode` in
 * an HTTP 200. The 20 MB file limit and the errcodes other than 40014 (不合法的access_token) follow
 * community SDKs and connectors, UNCONFIRMED against the official page.
 */

/** Most bytes one uploaded file may have by default: 20 MB (community sources, unconfirmed). */
export const DEFAULT_MAX_MEDIA_BYTES = 20 * 1024 * 1024;

/** One uploaded media file, for read-back. */
export interface DingTalkMediaFile {
  /** `media_id` the upload answered (valid 3 days on DingTalk; forever here). */
  readonly mediaId: string;
  /** `type` of the upload: `file`, `image`, `voice`, `video`. */
  readonly type: string;
  /** The multipart part's file name. */
  readonly fileName: string;
  readonly bytes: Uint8Array;
  /** Epoch ms. */
  readonly createdAt: number;
}

const MEDIA_TYPES = new Set(['file', 'image', 'voice', 'video']);

/** errcodes the routes answer with (old-API style, HTTP 200). */
const OAPI_ERRORS = {
  badCredentials: { errcode: 40089, errmsg: '不合法的corpid或corpsecret' },
  badToken: { errcode: 40014, errmsg: '不合法的access_token' },
  badType: { errcode: 40004, errmsg: '不合法的媒体文件类型' },
  tooLarge: { errcode: 40006, errmsg: '不合法的文件大小' },
  noMedia: { errcode: 41005, errmsg: '缺少多媒体文件数据' },
} as const;

/** Media files uploaded to the emulator, by `media_id`. */
export class DingTalkMediaStore {
  private readonly files = new Map<string, DingTalkMediaFile>();

  add(file: Omit<DingTalkMediaFile, 'mediaId'>): DingTalkMediaFile {
    const stored = { ...file, mediaId: `@lA${randomHex(24)}` };
    this.files.set(stored.mediaId, stored);
    return stored;
  }

  get(mediaId: string): DingTalkMediaFile | undefined {
    return this.files.get(mediaId);
  }

  list(): DingTalkMediaFile[] {
    return [...this.files.values()];
  }
}

/** Serves `GET /gettoken` and `POST /media/upload` on `app` (the same token registry as the v1.0 routes). */
export function mountOapiRoutes(app: Hono, deps: { tokens: DingTalkTokenRegistry; media: DingTalkMediaStore; clock: Clock; maxMediaBytes: number }): void {
  app.get('/gettoken', (c) => {
    try {
      const { accessToken, expireIn } = deps.tokens.issue(c.req.query('appkey'), c.req.query('appsecret'));
      return c.json({ errcode: 0, errmsg: 'ok', access_token: accessToken, expires_in: expireIn });
    } catch {
      return c.json(OAPI_ERRORS.badCredentials);
    }
  });
  app.post('/media/upload', async (c) => {
    try {
      deps.tokens.check(c.req.query('access_token'));
    } catch {
      return c.json(OAPI_ERRORS.badToken);
    }
    const type = c.req.query('type') ?? '';
    if (!MEDIA_TYPES.has(type)) return c.json(OAPI_ERRORS.badType);
    const form = await c.req.parseBody({ all: false }).catch(() => ({}) as Record<string, unknown>);
    const media = form.media;
    if (!(media instanceof File) || media.size === 0) return c.json(OAPI_ERRORS.noMedia);
    if (media.size > deps.maxMediaBytes) return c.json(OAPI_ERRORS.tooLarge);
    const stored = deps.media.add({ type, fileName: media.name, bytes: new Uint8Array(await media.arrayBuffer()), createdAt: deps.clock() });
    return c.json({ errcode: 0, errmsg: 'ok', media_id: stored.mediaId, type, created_at: stored.createdAt });
  });
}
