/**
 * Binds each signed callback's headers to its body. DingTalk's callback signature covers only the
 * `timestamp` and the secret (base64 HMAC-SHA256 of `timestamp + "\n" + apiSecret`, the scheme of
 * its robot callbacks: https://open.dingtalk.com/document/orgapp/receive-message; the card-callback
 * register API names `apiSecret` without giving a scheme, and neither the docs nor the official
 * SDKs show one covering the body: UNCONFIRMED that none exists). A pair of signed headers seen
 * once could otherwise carry any body within the hour it is valid, e.g. a bystander's click
 * re-sent as the run owner's approval. So the first body that arrives with a pair is the only one
 * that pair ever carries: the same body again is DingTalk's retry, another body is refused.
 */
import { createHash } from 'node:crypto';

/** Most pairs remembered; past it the oldest are dropped (they are the first to expire anyway). */
const MAX_REMEMBERED = 100_000;

export class SignedBodies {
  /** `timestamp + sign` → SHA-256 of the body and when the pair stops being accepted (epoch ms). */
  readonly #seen = new Map<string, { body: string; until: number }>();

  /** @param validityMs how long a signed pair is accepted after its timestamp (and before it), in ms. */
  constructor(private readonly validityMs: number) {}

  /**
   * True when `body` may be taken with this signed pair: the pair is new (it is then bound to the
   * body) or it came with this very body before. False: the pair was used with another body.
   * @param timestamp the request's `timestamp` header (epoch ms, already checked to be recent).
   */
  bind(timestamp: string, sign: string, body: string, now: number): boolean {
    this.#forgetExpired(now);
    const key = `${timestamp}\n${sign}`;
    const digest = createHash('sha256').update(body).digest('hex');
    const known = this.#seen.get(key);
    if (known) return known.body === digest;
    if (this.#seen.size >= MAX_REMEMBERED) this.#seen.delete(this.#seen.keys().next().value!);
    this.#seen.set(key, { body: digest, until: Number(timestamp) + this.validityMs });
    return true;
  }

  #forgetExpired(now: number): void {
    // Pairs arrive about in timestamp order: stop at the first one still valid (a later-expiring
    // one ahead of an expired one only delays that one's forgetting).
    for (const [key, entry] of this.#seen) {
      if (entry.until >= now) break;
      this.#seen.delete(key);
    }
  }
}
