import type { FeishuError, FeishuRoute } from './codes.js';

/**
 * The permission scopes each route accepts (any one of them is enough). CardKit routes need
 * `cardkit:card:write` (card create doc, https://open.larksuite.com/document/uAjLw4CM/ukTMukTMukTM/cardkit-v1/card/create).
 * The IM routes' lists follow the message/create doc's permission section (`im:message` or
 * `im:message:send_as_bot`); for patch, images and reactions the exact lists are UNCONFIRMED here.
 */
const FEISHU_ROUTE_SCOPES: Readonly<Partial<Record<FeishuRoute, readonly string[]>>> = {
  'im.message.create': ['im:message', 'im:message:send_as_bot'],
  'im.message.reply': ['im:message', 'im:message:send_as_bot'],
  'im.message.patch': ['im:message', 'im:message:send_as_bot'],
  'cardkit.card.create': ['cardkit:card:write'],
  'cardkit.card.update': ['cardkit:card:write'],
  'cardkit.card.settings': ['cardkit:card:write'],
  'cardkit.element.content': ['cardkit:card:write'],
};

/**
 * The answer of a route whose every accepted scope is in `missing`: 99991672 "Access denied. One of
 * the following scopes is required: [..]" (common error codes,
 * https://open.feishu.cn/document/server-docs/getting-started/server-error-codes). HTTP 400 as the
 * other business errors (the status of this code is UNCONFIRMED). Undefined when the app may call it.
 */
export function missingScopeError(route: FeishuRoute, missing: ReadonlySet<string>): FeishuError | undefined {
  const accepted = FEISHU_ROUTE_SCOPES[route];
  if (!accepted?.every((scope) => missing.has(scope))) return undefined;
  return { status: 400, code: 99991672, msg: `Access denied. One of the following scopes is required: [${accepted.join(', ')}].` };
}

/**
 * The answer of `GET /open-apis/application/v6/scopes` (查询租户授权状态,
 * https://open.feishu.cn/document/uAjLw4CM/ukTMukTMukTM/application-v6/scope/list): the scopes the
 * app asks for, each with `grant_status` 1 (granted) or 2 (not granted). The emulated app asks for
 * every scope its routes accept; the ones in `missing` are not granted.
 */
export function appScopes(missing: ReadonlySet<string>): Array<{ scope_name: string; grant_status: 1 | 2 }> {
  const names = new Set([...Object.values(FEISHU_ROUTE_SCOPES).flat(), ...missing]);
  return [...names].sort().map((name) => ({ scope_name: name, grant_status: missing.has(name) ? 2 : 1 }));
}
