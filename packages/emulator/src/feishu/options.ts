import { DEFAULT_CARD_LIMITS } from './card-rules.js';
import type { FeishuApp } from './tokens.js';
import { DEFAULT_FEISHU_APP, type FeishuEmulatorOptions, type FeishuLimits } from './types.js';

/**
 * Documented Feishu limits: sending (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/create),
 * patching (https://open.larkoffice.com/document/uAjLw4CM/ukTMukTMukTM/reference/im-v1/message/patch),
 * card JSON (https://open.feishu.cn/document/feishu-cards/card-json-v2-structure) and frequency control
 * (https://open.feishu.cn/document/server-docs/api-call-guide/frequency-control).
 */
export const DEFAULT_FEISHU_LIMITS: FeishuLimits = {
  ...DEFAULT_CARD_LIMITS,
  appWindows: [
    { limit: 50, intervalMs: 1000 },
    { limit: 1000, intervalMs: 60_000 },
  ],
  messageUpdateWindows: [{ limit: 5, intervalMs: 1000 }],
  chatSendWindows: [{ limit: 5, intervalMs: 1000 }],
  editWindowMs: 14 * 24 * 60 * 60 * 1000,
  recallWindowMs: 24 * 60 * 60 * 1000,
  uuidWindowMs: 60 * 60 * 1000,
  cardOperationWindows: [{ limit: 10, intervalMs: 1000 }],
  streamingWindowMs: 10 * 60 * 1000,
  entityLifetimeMs: 14 * 24 * 60 * 60 * 1000,
};

/** Thrown for bad emulator options; names the option and value. */
export class FeishuEmulatorOptionError extends Error {
  override readonly name = 'FeishuEmulatorOptionError';
}

/** Options with defaults applied and checked. @throws FeishuEmulatorOptionError */
export function resolveOptions(options: FeishuEmulatorOptions) {
  const bad = (field: string, value: unknown, why: string) =>
    new FeishuEmulatorOptionError(`feishu emulator option ${field} = ${JSON.stringify(value) ?? String(value)} (${why})`);
  const apps: readonly FeishuApp[] = options.apps ?? [DEFAULT_FEISHU_APP];
  if (apps.length === 0) throw bad('apps', apps, 'needs at least one app');
  apps.forEach((a, i) => {
    if (typeof a.appId !== 'string' || a.appId === '') throw bad(`apps[${i}].appId`, a.appId, 'must be a non-empty string');
    // The secret's value is never echoed.
    if (typeof a.appSecret !== 'string' || a.appSecret === '') throw bad(`apps[${i}].appSecret`, '<hidden>', 'must be a non-empty string');
  });
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 7200;
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds <= 0) throw bad('tokenTtlSeconds', tokenTtlSeconds, 'must be a positive integer (seconds)');
  const authErrorStatus = options.authErrorStatus ?? 400;
  if (authErrorStatus !== 400 && authErrorStatus !== 401) throw bad('authErrorStatus', authErrorStatus, 'must be 400 or 401');
  const limits: FeishuLimits = { ...DEFAULT_FEISHU_LIMITS, ...options.limits };
  for (const key of ['maxCardBytes', 'maxTextBytes', 'maxElements', 'maxTablesPerMarkdown', 'maxTablesPerCard', 'editWindowMs', 'recallWindowMs', 'uuidWindowMs', 'streamingWindowMs', 'entityLifetimeMs'] as const) {
    if (!Number.isFinite(limits[key]) || limits[key] < 0) throw bad(`limits.${key}`, limits[key], 'must be a number ≥ 0');
  }
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    clock: options.clock ?? Date.now,
    apps,
    tenantKey: options.tenantKey ?? 'emulator_tenant',
    tokenTtlSeconds,
    authErrorStatus,
    limits,
    missingScopes: new Set(options.missingScopes ?? []) as ReadonlySet<string>,
  } as const;
}
