import { randomBytes } from 'node:crypto';
import { decryptMessage, encryptMessage, signatureMatches, signatureOf, type WeComAesKey } from '../transport/crypto.js';

/** The query of a WeCom callback (`msgsignature` and `signature` are other spellings WeCom's tools use). */
export interface CallbackQuery {
  readonly msg_signature?: string;
  readonly msgsignature?: string;
  readonly signature?: string;
  readonly timestamp?: string;
  readonly nonce?: string;
  readonly echostr?: string;
}

/** Why a callback was refused (answered 403). */
export class CallbackRefused extends Error {
  override readonly name = 'CallbackRefused';
}

/**
 * Opens and seals WeCom callback envelopes: checks `msg_signature` over `[token, timestamp, nonce,
 * encrypt]`, refuses a timestamp outside `replayWindowMs` of now and a signature already seen
 * within it (a replayed request: WeCom documents no timestamp window, so this is the plugin's own
 * rule, UNCONFIRMED against WeCom's retry behaviour), and decrypts; seals replies the same way
 * (https://developer.work.weixin.qq.com/document/path/101031: `{encrypt, msgsignature, timestamp, nonce}`).
 */
export class CallbackEnvelope {
  private readonly seen = new Map<string, number>();
  // ES private fields: no dump of the plugin (util.inspect, JSON) shows the secrets.
  readonly #token: string;
  readonly #aes: WeComAesKey;

  constructor(
    token: string,
    aes: WeComAesKey,
    private readonly replayWindowMs: number,
    private readonly now: () => number,
  ) {
    this.#token = token;
    this.#aes = aes;
  }

  /**
   * The plaintext of `encrypt`, after the signature and replay checks.
   * @throws CallbackRefused naming what failed.
   */
  open(query: CallbackQuery, encrypt: string): string {
    const signature = query.msg_signature ?? query.msgsignature ?? query.signature;
    const { timestamp, nonce } = query;
    if (!signature || !timestamp || !nonce) throw new CallbackRefused('missing msg_signature, timestamp or nonce');
    if (!signatureMatches(signature, this.#token, timestamp, nonce, encrypt)) throw new CallbackRefused('msg_signature does not match');
    const sentAt = Number(timestamp) * 1000;
    const now = this.now();
    if (!Number.isFinite(sentAt) || Math.abs(now - sentAt) > this.replayWindowMs) throw new CallbackRefused(`timestamp ${timestamp} is outside ${this.replayWindowMs} ms of now`);
    this.forget(now);
    if (this.seen.has(signature)) throw new CallbackRefused('replayed callback (msg_signature seen before)');
    this.seen.set(signature, sentAt + this.replayWindowMs);
    try {
      return decryptMessage(this.#aes, encrypt).message;
    } catch (error) {
      throw new CallbackRefused(`cannot decrypt: ${(error as Error).message}`);
    }
  }

  /** The encrypted, signed reply body for `message` (a JSON value), echoing the request's timestamp. */
  seal(message: unknown, timestamp: string | undefined): string {
    const encrypt = encryptMessage(this.#aes, JSON.stringify(message));
    const stamp = timestamp ?? String(Math.floor(this.now() / 1000));
    const nonce = randomBytes(8).toString('hex');
    return JSON.stringify({ encrypt, msgsignature: signatureOf(this.#token, stamp, nonce, encrypt), timestamp: stamp, nonce });
  }

  private forget(now: number): void {
    for (const [signature, until] of this.seen) if (until < now) this.seen.delete(signature);
  }
}

/** A callback request, framework-free: what `WeComCallbacks.handle` takes. */
export interface CallbackRequest {
  readonly method: string;
  readonly query: CallbackQuery;
  readonly body: string;
}

/** What `WeComCallbacks.handle` answers. */
export interface CallbackAnswer {
  readonly status: 200 | 400 | 403 | 404;
  /** `text/plain`, as the official reference answers encrypted replies. */
  readonly body: string;
}
