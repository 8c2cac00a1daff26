import * as lark from '@larksuiteoapi/node-sdk';
import type { FeishuEmulator } from '../src/index.js';

/** A no-op logger: the SDK logs every HTTP error at error level otherwise. */
const silentLogger = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

/**
 * The official SDK pointed at the emulator. Each client gets its own token cache: the SDK's default
 * cache is a module-level singleton keyed by appId, shared by every Client (node-sdk `client/token-manager.ts`, https://github.com/larksuite/node-sdk).
 */
export function sdkClient(emulator: FeishuEmulator, app = emulator.apps[0]!): lark.Client {
  return new lark.Client({
    appId: app.appId,
    appSecret: app.appSecret,
    domain: emulator.baseUrl,
    cache: new lark.DefaultCache(),
    logger: silentLogger,
  });
}

/** A minimal valid 2.0 card with one markdown element per text. */
export function card2(...texts: string[]): Record<string, unknown> {
  return {
    schema: '2.0',
    config: { update_multi: true },
    header: { title: { tag: 'plain_text', content: 'Run' } },
    body: { elements: texts.map((content, i) => ({ tag: 'markdown', element_id: `md_${i}`, content })) },
  };
}

/** What the SDK threw: the axios error's status, body and headers. */
export async function sdkFailure(call: Promise<unknown>): Promise<{ status: number; code: number; msg: string; headers: Record<string, string> }> {
  try {
    const value = await call;
    throw new Error(`expected the call to fail, it resolved with ${JSON.stringify(value)}`);
  } catch (error) {
    const response = (error as { response?: { status: number; data: { code: number; msg: string }; headers: Record<string, string> } }).response;
    if (!response) throw error;
    return { status: response.status, code: response.data.code, msg: response.data.msg, headers: response.headers };
  }
}

/** Plain fetch with a JSON body. */
export async function call(
  emulator: FeishuEmulator,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** Fetches a tenant_access_token with plain HTTP. */
export async function fetchToken(emulator: FeishuEmulator, app = emulator.apps[0]!): Promise<string> {
  const r = await call(emulator, 'POST', '/open-apis/auth/v3/tenant_access_token/internal', { app_id: app.appId, app_secret: app.appSecret });
  return r.body.tenant_access_token as string;
}
