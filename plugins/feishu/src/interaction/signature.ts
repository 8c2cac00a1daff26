import { createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';

/**
 * `X-Lark-Signature` of a callback sent with an Encrypt Key: hex SHA-256 of timestamp + nonce +
 * encrypt key + raw body (headers `X-Lark-Request-Timestamp`, `X-Lark-Request-Nonce`;
 * https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/event-subscription-guide/event-subscriptions/encrypt-key-encryption-configuration-case).
 */
function larkSignature(timestamp: string, nonce: string, encryptKey: string, body: string): string {
  return createHash('sha256').update(timestamp + nonce + encryptKey + body).digest('hex');
}

/** True when `signature` is the {@link larkSignature} of the request (constant-time compare). */
export function verifyLarkSignature(signature: string | undefined, timestamp: string | undefined, nonce: string | undefined, encryptKey: string, body: string): boolean {
  if (!signature || timestamp === undefined || nonce === undefined) return false;
  const expected = Buffer.from(larkSignature(timestamp, nonce, encryptKey, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Decrypts an `encrypt` body: AES-256-CBC, key = SHA-256 of the Encrypt Key, the first 16 bytes
 * of the base64-decoded text are the IV (same page as {@link larkSignature}).
 * @throws Error when the text does not decrypt.
 */
export function decryptLarkBody(encrypted: string, encryptKey: string): string {
  const data = Buffer.from(encrypted, 'base64');
  const key = createHash('sha256').update(encryptKey).digest();
  const decipher = createDecipheriv('aes-256-cbc', key, data.subarray(0, 16));
  return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]).toString('utf8');
}
