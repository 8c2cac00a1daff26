import { systemClock, type LimitWindow } from '../common/index.js';
import { DEFAULT_DINGTALK_APP, DEFAULT_TOKEN_TTL_SECONDS, type DingTalkAppCredentials } from './tokens.js';
import type { DingTalkEmulatorOptions } from './types.js';
import { DEFAULT_MAX_MEDIA_BYTES } from './media.js';

/** Default per app, per API limit: 20 calls per second (https://open.dingtalk.com/document/development/how-to-process-api-throttling-on-the-dingtalk-server). */
export const DINGTALK_DEFAULT_RATE_LIMIT: readonly LimitWindow[] = [{ limit: 20, intervalMs: 1000 }];

/** Thrown for bad emulator options; names the option and value (never a secret's value). */
export class DingTalkEmulatorOptionError extends Error {
  override readonly name = 'DingTalkEmulatorOptionError';
}

/** Options with defaults applied and checked. @throws DingTalkEmulatorOptionError */
export function resolveDingTalkOptions(options: DingTalkEmulatorOptions) {
  const bad = (field: string, value: unknown, why: string) =>
    new DingTalkEmulatorOptionError(`dingtalk emulator option ${field} = ${JSON.stringify(value) ?? String(value)} (${why})`);
  const apps: readonly DingTalkAppCredentials[] = options.apps ?? [DEFAULT_DINGTALK_APP];
  if (apps.length === 0) throw bad('apps', apps, 'needs at least one app');
  apps.forEach((a, i) => {
    if (typeof a.appKey !== 'string' || a.appKey === '') throw bad(`apps[${i}].appKey`, a.appKey, 'must be a non-empty string');
    if (typeof a.appSecret !== 'string' || a.appSecret === '') throw bad(`apps[${i}].appSecret`, '<hidden>', 'must be a non-empty string');
  });
  const tokenTtlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds <= 0) throw bad('tokenTtlSeconds', tokenTtlSeconds, 'must be a positive integer (seconds)');
  const rateLimit = options.rateLimit === false ? undefined : (options.rateLimit ?? DINGTALK_DEFAULT_RATE_LIMIT);
  if (rateLimit !== undefined && (!Array.isArray(rateLimit) || rateLimit.length === 0)) {
    throw bad('rateLimit', rateLimit, 'must be a non-empty array of { limit, intervalMs } or false');
  }
  const max = options.maxStreamingContentChars;
  if (max !== undefined && (!Number.isInteger(max) || max <= 0)) throw bad('maxStreamingContentChars', max, 'must be a positive integer');
  const quota = options.monthlyQuota;
  if (quota !== undefined && (!Number.isInteger(quota) || quota < 0)) throw bad('monthlyQuota', quota, 'must be a non-negative integer');
  const maxMediaBytes = options.maxMediaBytes ?? DEFAULT_MAX_MEDIA_BYTES;
  if (!Number.isInteger(maxMediaBytes) || maxMediaBytes <= 0) throw bad('maxMediaBytes', maxMediaBytes, 'must be a positive integer (bytes)');
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    clock: options.clock ?? systemClock,
    apps,
    tokenTtlSeconds,
    rateLimit,
    templates: options.templates && new Set(options.templates),
    streamingKeys: options.streamingKeys && new Set(options.streamingKeys),
    maxStreamingContentChars: max,
    monthlyQuota: quota,
    maxMediaBytes,
    missingScopes: new Set(options.missingScopes ?? []) as ReadonlySet<string>,
    template: options.template ?? {},
    templateModels: options.templateModels ?? {},
  } as const;
}
