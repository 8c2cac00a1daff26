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
