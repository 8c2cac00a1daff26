import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * WeCom's side of the callback encryption, written separately from the plugin's so a shared
 * mistake cannot hide: SHA-1 over the sorted `[token, timestamp, nonce, encrypt]`; AES-256-CBC with
 * key = base64(EncodingAESKey + "="), IV = key[0..16], PKCS#7 to 32-byte blocks, plaintext
 * `random16 ‖ len32be ‖ json ‖ receiveId` (receiveId '' for the AI bot).
 */
export class WeComCipher {
  private readonly key: Buffer;

  constructor(
    private readonly token: string,
    encodingAesKey: string,
  ) {
    this.key = Buffer.from(`${encodingAesKey}=`, 'base64');
    if (this.key.length !== 32) throw new RangeError('WeComCipher: the EncodingAESKey must be 43 base64 characters');
  }

  sign(timestamp: string, nonce: string, encrypt: string): string {
    return createHash('sha1').update([this.token, timestamp, nonce, encrypt].sort().join('')).digest('hex');
  }

  encrypt(json: string): string {
    const body = Buffer.from(json, 'utf8');
    const header = Buffer.alloc(20);
    randomBytes(16).copy(header);
    header.writeUInt32BE(body.length, 16);
    const plain = Buffer.concat([header, body]);
    const pad = 32 - (plain.length % 32);
    const cipher = createCipheriv('aes-256-cbc', this.key, this.key.subarray(0, 16)).setAutoPadding(false);
    return Buffer.concat([cipher.update(Buffer.concat([plain, Buffer.alloc(pad, pad)])), cipher.final()]).toString('base64');
  }

  /** @throws Error on a malformed ciphertext. */
  decrypt(encrypt: string): string {
    const decipher = createDecipheriv('aes-256-cbc', this.key, this.key.subarray(0, 16)).setAutoPadding(false);
    const plain = Buffer.concat([decipher.update(Buffer.from(encrypt, 'base64')), decipher.final()]);
    const pad = plain[plain.length - 1]!;
    if (pad < 1 || pad > 32) throw new Error('bad padding');
    const length = plain.readUInt32BE(16);
    if (20 + length > plain.length - pad) throw new Error('bad length');
    return plain.subarray(20, 20 + length).toString('utf8');
  }
}
