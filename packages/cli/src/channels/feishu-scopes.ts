import type { FeishuPlugin } from '@progresscard/plugin-feishu';
import type { AnyChannelPlugin, Env, ScopeCheckResult } from './descriptor.js';
import { getJson, postJson } from './doctor-support.js';

/** The scope CardKit card entities need (CardKit docs, https://open.feishu.cn/document/cardkit-v1/card/create). */
const CARDKIT_SCOPE = 'cardkit:card:write';

/** What a Feishu app in CardKit mode does without {@link CARDKIT_SCOPE} (the plugin's fallback on code 99991672). */
const CARDKIT_FALLBACK = 'cards go out as plain interactive card messages, patched in place (no typewriter answer), after one warning';

/**
 * `doctor`'s scope check for Feishu: in CardKit mode (the default), asks
 * `GET /open-apis/application/v6/scopes` (查询租户授权状态, needs no scope itself;
 * https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/application-v6/scope/list) whether the tenant
 * granted `cardkit:card:write` (`grant_status` 1). A scope the app never asked for is not listed.
 * @throws Error with the platform's code when the token or the scope list is refused.
 */
export async function checkFeishuScopes(baseUrl: string, env: Env, plugin: AnyChannelPlugin): Promise<ScopeCheckResult> {
  const mode = (plugin as FeishuPlugin).config?.mode;
  if (mode !== 'cardkit') {
    return { status: 'pass', summary: `mode '${String(mode)}' (patched IM card messages): no CardKit scope needed`, details: ['FEISHU_CARD_MODE=cardkit (the default) types answers out on CardKit cards; it needs the scope cardkit:card:write'] };
  }
  const { json: token } = await postJson(`${baseUrl}/open-apis/auth/v3/tenant_access_token/internal`, { app_id: env.FEISHU_APP_ID, app_secret: env.FEISHU_APP_SECRET });
  if (token.code !== 0 || typeof token.tenant_access_token !== 'string') throw new Error(`Feishu refused the app credentials: code ${String(token.code)}`);
  const { json } = await getJson(`${baseUrl}/open-apis/application/v6/scopes`, { authorization: `Bearer ${token.tenant_access_token}` });
  if (json.code !== 0) throw new Error(`Feishu refused the scope list: code ${String(json.code)} (${String(json.msg ?? '')})`);
  const scopes = ((json.data as { scopes?: unknown } | undefined)?.scopes ?? []) as Array<{ scope_name?: unknown; grant_status?: unknown }>;
  const entry = Array.isArray(scopes) ? scopes.find((scope) => scope.scope_name === CARDKIT_SCOPE) : undefined;
  if (entry?.grant_status === 1) {
    return { status: 'pass', summary: `the app holds ${CARDKIT_SCOPE}: cards are CardKit cards whose answer types itself out`, details: [] };
  }
  const why = entry === undefined ? 'the app does not ask for it' : 'the tenant has not granted it';
  return {
    status: 'warn',
    summary: `the app lacks ${CARDKIT_SCOPE} (${why}): ${CARDKIT_FALLBACK}`,
    details: [
      `add ${CARDKIT_SCOPE} under Permissions & Scopes in the developer console and publish a new version (a tenant admin may have to approve it)`,
      'or set FEISHU_CARD_MODE=message to choose the patched IM card without the warning',
    ],
  };
}
