import { boundedJson } from './bounded-json.js';

/**
 * The user-info part of a URL (`scheme://user:password@`), valid URL or not, up to its last `@`
 * before the query (a password may hold `@` or `/`).
 */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^\s?#"]*@/gi;
/** A query parameter that carries a credential (`?access_token=…`, `&sign=…` of a DingTalk robot webhook, `&api_key=…`). */
const QUERY_CREDENTIAL = /([?&](?:[\w.-]*(?:token|secret|password|passwd|pwd|key|signature|sign|sig|auth|credential)[\w.-]*)=)[^&#\s"]*/gi;

/** `text` with the credentials of any URL in it shown as `<hidden>`. */
function hideUrlCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1<hidden>@').replace(QUERY_CREDENTIAL, '$1<hidden>');
}

/**
 * A value for an error message: JSON cut to 80 characters; `undefined (missing)` when absent.
 * Credentials in a URL are hidden: `https://user:password@host` is shown as `https://<hidden>@host`,
 * `?access_token=abc` (any parameter naming a token, secret, password, key or signature) as `?access_token=<hidden>`.
 */
export function showValue(value: unknown): string {
  if (value === undefined) return 'undefined (missing)';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = hideUrlCredentials(JSON.stringify(value) ?? String(value));
  } catch {
    // Cyclic, BigInt, a throwing getter: shown as far as it can be.
    text = hideUrlCredentials(boundedJson(value, 100));
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
