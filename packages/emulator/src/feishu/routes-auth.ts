import type { Hono } from 'hono';
import { FEISHU_ROUTES } from './codes.js';
import type { FeishuContext } from './context.js';
import { runCall } from './pipeline.js';
import { appScopes } from './scopes.js';

/**
 * `POST /open-apis/auth/v3/tenant_access_token/internal` (self-built app), and
 * `GET /open-apis/application/v6/scopes` (the app's scopes; needs no scope itself).
 */
export function mountAuthRoutes(app: Hono, ctx: FeishuContext): void {
  app.post('/open-apis/auth/v3/tenant_access_token/internal', (c) =>
    runCall(
      ctx,
      c,
      { route: FEISHU_ROUTES.token, auth: false, redact: ({ app_secret, ...rest }) => ({ ...rest, app_secret: app_secret === undefined ? undefined : '***' }) },
      ({ body }) => {
        const issued = ctx.tokens.issue(body?.app_id, body?.app_secret);
        if ('error' in issued) return { ok: false, error: issued.error };
        return { ok: true, msg: 'ok', fields: { tenant_access_token: issued.token, expire: issued.expire } };
      },
    ),
  );
  app.get('/open-apis/application/v6/scopes', (c) =>
    runCall(ctx, c, { route: FEISHU_ROUTES.scopeList, auth: true }, () => ({ ok: true, fields: { data: { scopes: appScopes(ctx.missingScopes) } } })),
  );
}
