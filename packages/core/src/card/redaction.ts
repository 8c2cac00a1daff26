/**
 * Secret redaction: card text (titles, tool arguments, tool output summaries, thinking, answers,
 * questions, errors) goes to a chat that a whole group reads, so token shapes that are secrets are
 * replaced by {@link REDACTED} before any renderer sees them. On by default.
 *
 * Why our own patterns and not a library: the well-kept scanner for JavaScript (secretlint) is an
 * asynchronous file linter (`lintSource` returns a Promise) while the card reducer is synchronous
 * and pure, its current major needs Node 22 (we support 20.19+), and its rules leave out what a
 * tool line shows most (`Authorization: Bearer …` headers, JWTs, `NAME=value` shell and `.env`
 * lines); redaction libraries such as fast-redact or @pinojs/redact mask object paths, not token
 * shapes in free text. So the shapes are data here ({@link SECRET_PATTERNS}), one rule a row,
 * after gitleaks' and secretlint's published rules for the same providers.
 */

/** What a secret is replaced with on the card. */
export const REDACTED = '[redacted]';

/**
 * One secret shape. `pattern` must have the `g` flag. When it has a named group `keep`, that part of
 * the match (a header name, `NAME=`) stays and only the rest is replaced; otherwise the whole match is.
 */
export interface SecretPattern {
  /** Short name for docs and tests, e.g. `aws-access-key-id`. */
  readonly name: string;
  readonly pattern: RegExp;
}

/** A name that says its value is secret: `*_KEY`, `*_TOKEN`, `*_SECRET`, `PASSWORD`… (upper case, as in env and `.env` files). */
const SECRET_ENV_NAME = '[A-Z0-9_]*(?:_KEY|_KEYS|APIKEY|_TOKEN|TOKEN|SECRET|_SECRET_[A-Z0-9_]*|PASSWORD|PASSWD|_PWD|_PASS|PASSPHRASE|_CREDENTIALS?|_AUTH|_SIG|_SIGNATURE|_SALT|_DSN)';
/** The same for keys in JSON, YAML and code: `apiKey`, `client_secret`, `"password"`… (any case, value in quotes). */
const SECRET_FIELD_NAME = '[A-Za-z0-9_-]*(?:api[_-]?key|apikey|secret|password|passwd|passphrase|access[_-]?token|refresh[_-]?token|auth[_-]?token|id[_-]?token|session[_-]?token|bot[_-]?token|private[_-]?key|access[_-]?key|secret[_-]?key|client[_-]?secret|app[_-]?secret)';
/** The schemes of an `Authorization` header value. */
const AUTH_SCHEME = '(?:Bearer|Basic|Token|Bot|Digest|Negotiate|AWS4-HMAC-SHA256)';
/** A value that looks like a token, not a word of prose (`Authorization: required …`): it has a digit or a token symbol, or is long. */
const TOKEN_LIKE = String.raw`(?=[^\s"'\`,;]*[0-9._~+/=-]|[^\s"'\`,;]{20})`;
/** A value that is a reference, not a secret: `$VAR`, `${VAR}`, `<your key>`, `%VAR%`, `***`. */
const NOT_A_REFERENCE = String.raw`(?![$<%*{]|\[redacted\])`;

/**
 * The secret shapes redacted by default, most specific first (a private-key block before the
 * `NAME=value` rule that might otherwise cut it in half).
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { name: 'private-key-block', pattern: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { name: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g },
  { name: 'gcp-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { name: 'gcp-oauth-token', pattern: /\bya29\.[0-9A-Za-z_-]{20,}/g },
  { name: 'azure-storage-key', pattern: /(?<keep>\b(?:AccountKey|SharedAccessKey)=)[A-Za-z0-9+/]{20,}={0,2}/g },
  { name: 'azure-sas-signature', pattern: /(?<keep>[?&]sig=)[A-Za-z0-9%+/]{20,}={0,2}/g },
  { name: 'azure-client-secret', pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  // A key's random body has a digit or a capital; an all-lower-case dashed name (branch `sk-learn-…`) is not a key.
  { name: 'openai-anthropic-key', pattern: /\bsk-(?:proj-|ant-(?:api\d\d-|admin\d\d-)?|svcacct-|admin-)?(?=[a-z_-]*[0-9A-Z])[A-Za-z0-9_-]{20,}/g },
  { name: 'stripe-key', pattern: /\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/g },
  { name: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { name: 'slack-token', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}/g },
  // App-level tokens (Socket Mode): https://api.slack.com/authentication/token-types#app-level
  { name: 'slack-app-token', pattern: /\bxapp-\d-[A-Za-z0-9-]{10,}/g },
  { name: 'slack-webhook', pattern: /(?<keep>https:\/\/hooks\.slack\.com\/services\/)[A-Za-z0-9/]{20,}/g },
  { name: 'npm-token', pattern: /\bnpm_[A-Za-z0-9]{36,}\b/g },
  { name: 'huggingface-token', pattern: /\bhf_[A-Za-z0-9]{30,}\b/g },
  { name: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  // Not `\b` before the digits: in a Bot API URL the token follows `bot` (https://core.telegram.org/bots/api#making-requests).
  { name: 'telegram-bot-token', pattern: /(?<![0-9])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  // Bot token: base64 user id . timestamp . HMAC. The shape is the one widely used by token scanners; Discord does not document it (unconfirmed).
  { name: 'discord-bot-token', pattern: /(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g },
  {
    name: 'authorization-header',
    pattern: new RegExp(
      String.raw`(?<keep>\b(?:Proxy-)?Authorization["'\`]?\s*[:=]\s*["'\`]?(?:${AUTH_SCHEME}\s+)?)(?!${AUTH_SCHEME}\b)${NOT_A_REFERENCE}${TOKEN_LIKE}[^\s"'\`,;]{6,}`,
      'gi',
    ),
  },
  {
    name: 'api-key-header',
    pattern: new RegExp(String.raw`(?<keep>\b(?:x-api-key|api-key|x-auth-token|private-token|x-goog-api-key)["']?\s*[:=]\s*["']?)${NOT_A_REFERENCE}[^\s"'\`,;]{6,}`, 'gi'),
  },
  // "Bearer" alone (a token passed on, a curl -H cut elsewhere): only a token-looking word with a digit.
  { name: 'bearer-token', pattern: /(?<keep>\bBearer\s+)(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{12,}=*/g },
  { name: 'url-query-secret', pattern: /(?<keep>[?&](?:access_token|refresh_token|id_token|auth_token|token|api_key|apikey|client_secret|secret|password|signature)=)(?![$<%*{]|\[redacted\])[^\s&#"'<>]{6,}/gi },
  { name: 'url-password', pattern: /(?<keep>\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]{3,}(?=@)/gi },
  {
    name: 'secret-env-quoted',
    pattern: new RegExp(String.raw`(?<keep>(?<![A-Za-z0-9_])${SECRET_ENV_NAME}\s*[=:]\s*(?<quote>["']))${NOT_A_REFERENCE}[^"'\n]{3,}(?=\k<quote>)`, 'g'),
  },
  {
    name: 'secret-env-assignment',
    pattern: new RegExp(String.raw`(?<keep>(?<![A-Za-z0-9_])${SECRET_ENV_NAME}\s*[=:]\s*["']?)${NOT_A_REFERENCE}[^\s"'\`]{3,}`, 'g'),
  },
  // INI, .properties and lower-case .env lines (`aws_secret_access_key = …`): a whole line whose value looks like a token.
  {
    name: 'secret-config-line',
    pattern: /(?<keep>^[ \t]*(?:export[ \t]+)?[A-Za-z0-9_.-]*(?:secret|password|passwd|token|_key|apikey)[A-Za-z0-9_]*[ \t]*[=:][ \t]*["']?)[A-Za-z0-9+/=_.~-]{8,}(?=["']?[ \t]*$)/gim,
  },
  {
    name: 'secret-field',
    pattern: new RegExp(String.raw`(?<keep>["']?(?<![A-Za-z0-9_-])${SECRET_FIELD_NAME}["']?\s*[:=]\s*["'])${NOT_A_REFERENCE}[^"'\n]{4,}`, 'gi'),
  },
];

/**
 * Redaction settings (per card, see `OpenCardOptions.redaction`): `false` turns it off; an object
 * adds patterns (each must have the `g` flag, else it is copied with one) to the defaults.
 */
export type RedactionOption = false | { readonly extraPatterns?: readonly RegExp[] };

/** Replaces secrets in text; returns its input unchanged (same string) when nothing matched. */
export type Redact = (text: string) => string;

/** A {@link Redact} that changes nothing (redaction off). */
export const NO_REDACTION: Redact = (text) => text;

/** A {@link Redact} for the given settings: the default patterns plus any extra ones, or none with `false`. */
export function createRedactor(option?: RedactionOption): Redact {
  if (option === false) return NO_REDACTION;
  const extra = (option?.extraPatterns ?? []).map((pattern, i): SecretPattern => ({
    name: `extra-${i + 1}`,
    pattern: pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`),
  }));
  const patterns = [...SECRET_PATTERNS, ...extra];
  return (text) => redactWith(patterns, text);
}

/** The default redactor. */
export const redactSecrets: Redact = createRedactor();

function redactWith(patterns: readonly SecretPattern[], text: string): string {
  if (text.length < 8) return text;
  let out = text;
  for (const { pattern } of patterns) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    pattern.lastIndex = 0;
    out = out.replace(pattern, (...args: unknown[]) => {
      const last = args[args.length - 1];
      const keep = typeof last === 'object' && last !== null ? (last as { keep?: string }).keep : undefined;
      return `${keep ?? ''}${REDACTED}`;
    });
  }
  return out;
}
