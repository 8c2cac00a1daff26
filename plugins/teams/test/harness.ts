import type { ConformanceFault } from '@progresscard/core/testing/conformance';
import { DEFAULT_TEAMS_BOT, type FaultResponse, type TeamsActivitySnapshot, type TeamsEmulator } from '@progresscard/emulator';
import { teams, type TeamsConfigInput } from '../src/index.js';

/** Windows roomy enough that a test's bursts never meet the real 7-a-second limit (the pacing test uses the real ones). */
export const ROOMY_WINDOWS = [{ limit: 100, intervalMs: 1000 }];

/** Teams' answer to each fault: 429 with Retry-After in seconds (UNCONFIRMED that Teams sends it), 401, a 502 (retryable per the rate-limit page). */
export function teamsAnswer(fault: ConformanceFault): FaultResponse {
  switch (fault.kind) {
    case 'rate-limited':
      return { status: 429, body: { error: { code: 'ThrottledTooManyRequests', message: 'API calls quota exceeded' } }, headers: { 'retry-after': String(Math.ceil(fault.retryAfterMs / 1000)) } };
    case 'auth':
      return { status: 401, body: { error: { code: 'Unauthorized', message: 'Authorization has been denied for this request.' } } };
    case 'transient':
      return { status: 502, body: { error: { code: 'BadGateway', message: 'Bad gateway' } } };
    case 'not-modified':
      throw new Error('Teams accepts an update that changes nothing');
  }
}

/** Every text an activity shows: its `text` and each `text` / `title` of its Adaptive Cards. */
export function shownText(activity: Pick<TeamsActivitySnapshot, 'text' | 'attachments'>): string {
  const texts: string[] = activity.text ? [activity.text] : [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if ((key === 'text' || key === 'title') && typeof inner === 'string') texts.push(inner);
        else walk(inner);
      }
    }
  };
  walk(activity.attachments);
  return texts.join('\n');
}

/** A plugin pointed at `emulator`, for `conversationId` (default the group chat). */
export function teamsOn(emulator: TeamsEmulator, overrides: Partial<TeamsConfigInput> = {}) {
  return teams(
    {
      appId: DEFAULT_TEAMS_BOT.appId,
      appPassword: DEFAULT_TEAMS_BOT.appPassword,
      tenantId: DEFAULT_TEAMS_BOT.tenantId,
      loginUrl: emulator.loginUrl,
      serviceUrl: emulator.serviceUrl,
      conversationId: DEFAULT_TEAMS_BOT.groupChat,
      ...overrides,
    },
    { env: {} },
  );
}
