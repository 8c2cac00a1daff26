/**
 * Small helpers the channel descriptors' `doctor` sections share: JSON calls over fetch, and
 * every string inside a payload.
 */

/** Timeout of a credentials check (ms), like the plugins' own requests. */
const CREDENTIALS_TIMEOUT_MS = 10_000;

/**
 * POSTs `body` as JSON to `url` and returns the parsed answer, whatever its status.
 * @throws Error naming the URL when the request fails or the answer is not JSON.
 */
export async function postJson(url: string, body: unknown, headers: Readonly<Record<string, string>> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CREDENTIALS_TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`POST ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  try {
    return { status: response.status, json: JSON.parse(text) as Record<string, unknown> };
  } catch {
    throw new Error(`POST ${url} answered HTTP ${response.status} with a body that is not JSON`);
  }
}

/**
 * GETs `url` and returns the parsed JSON answer, whatever its status.
 * @throws Error naming the URL when the request fails or the answer is not JSON.
 */
export async function getJson(url: string, headers: Readonly<Record<string, string>> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(CREDENTIALS_TIMEOUT_MS) });
  } catch (error) {
    throw new Error(`GET ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  try {
    return { status: response.status, json: JSON.parse(text) as Record<string, unknown> };
  } catch {
    throw new Error(`GET ${url} answered HTTP ${response.status} with a body that is not JSON`);
  }
}

/** Every string value inside `value` (object keys left out), joined by newlines. */
export function stringsIn(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') {
      // A JSON-encoded string (a Feishu content, a DingTalk layout variable) is searched inside too.
      if (/^[[{]/.test(v)) {
        try {
          walk(JSON.parse(v));
          return;
        } catch {
          // plain text after all
        }
      }
      out.push(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return out.join('\n');
}
