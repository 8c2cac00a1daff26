import { randomBytes } from 'node:crypto';

/** `n` random lowercase hex characters. */
export function randomHex(n: number): string {
  return randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);
}

/** A random decimal string of `n` digits, not starting with 0 (ids such as CardKit `card_id`). */
export function randomDigits(n: number): string {
  let out = String(1 + Math.floor(Math.random() * 9));
  while (out.length < n) out += String(Math.floor(Math.random() * 10));
  return out;
}
