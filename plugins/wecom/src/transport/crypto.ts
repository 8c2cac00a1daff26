import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * WeCom's callback encryption ("回调和回复的加解密方案", linked from
 * https://developer.work.weixin.qq.com/document/path/100719): `msg_signature` is the hex SHA-1 of
 * the lexicographically sorted `[token, timestamp, nonce, encrypt]` joined; `encrypt` is base64 of
 * AES-256-CBC (key = base64 of the 43-character EncodingAESKey plus `=`, IV = its first 16 bytes,
 * PKCS#7 padding to 32-byte blocks) over `random(16) ‖ length(4, big-endian) ‖ message ‖ receiveId`.
 * For the AI bot `receiveId` is the empty string (the official SDK `@wecom/aibot-node-sdk` makes it
 * optional; UNCONFIRMED in WeCom's own page). Written on node:crypto: the official SDK brings axios
 * and ws for its long-connection client, which this plugin does not use.
 */

/** PKCS#7 block size WeCom pads to (32, not AES's 16). */
const PAD_BLOCK = 32;

/** An EncodingAESKey decoded: the 32-byte AES key and the IV (its first 16 bytes). */
export interface WeComAesKey {
  readonly key: Buffer;
  readonly iv: Buffer;
}

/**
 * Decodes a 43-character EncodingAESKey.
 * @throws Error when it is not 43 base64 characters decoding to 32 bytes.
 */
export function decodeEncodingAesKey(encodingAesKey: string): WeComAesKey {
  if (!/^[A-Za-z0-9+/]{43}$/.test(encodingAesKey)) throw new Error('encodingAESKey: expected 43 base64 characters');
  const key = Buffer.from(`${encodingAesKey}=`, 'base64');
  if (key.length !== 32) throw new Error('encodingAESKey: does not decode to 32 bytes');
  return { key, iv: key.subarray(0, 16) };
}

/** `msg_signature` of one message: hex SHA-1 of the sorted four strings. */
export function signatureOf(token: string, timestamp: string, nonce: string, encrypt: string): string {
  return createHash('sha1').update([token, timestamp, nonce, encrypt].sort().join('')).digest('hex');
}

/** True when `signature` is the message's `msg_signature` (compared in constant time). */
export function signatureMatches(signature: string, token: string, timestamp: string, nonce: string, encrypt: string): boolean {
  const expected = Buffer.from(signatureOf(token, timestamp, nonce, encrypt));
  const given = Buffer.from(signature.toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Encrypts `message` (UTF-8) into WeCom's base64 `encrypt` field. */
export function encryptMessage(aes: WeComAesKey, message: string, receiveId = ''): string {
  const body = Buffer.from(message, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length, 0);
  const plain = Buffer.concat([randomBytes(16), length, body, Buffer.from(receiveId, 'utf8')]);
  const pad = PAD_BLOCK - (plain.length % PAD_BLOCK);
  const cipher = createCipheriv('aes-256-cbc', aes.key, aes.iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString('base64');
}

/**
 * Decrypts WeCom's `encrypt` field; returns the message and the receiveId after it.
 * @throws Error when the ciphertext, its padding or its length field is malformed.
 */
export function decryptMessage(aes: WeComAesKey, encrypt: string): { message: string; receiveId: string } {
  const data = Buffer.from(encrypt, 'base64');
  if (data.length === 0 || data.length % 16 !== 0) throw new Error('encrypt: not a whole number of AES blocks');
  const decipher = createDecipheriv('aes-256-cbc', aes.key, aes.iv);
  decipher.setAutoPadding(false);
  const padded = Buffer.concat([decipher.update(data), decipher.final()]);
  const pad = padded[padded.length - 1]!;
  if (pad < 1 || pad > PAD_BLOCK || pad > padded.length) throw new Error('encrypt: bad padding');
  const plain = padded.subarray(0, padded.length - pad);
  if (plain.length < 20) throw new Error('encrypt: too short');
  const length = plain.readUInt32BE(16);
  if (20 + length > plain.length) throw new Error('encrypt: length field past the end');
  return { message: plain.subarray(20, 20 + length).toString('utf8'), receiveId: plain.subarray(20 + length).toString('utf8') };
}
