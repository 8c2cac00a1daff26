import { DEFAULT_DINGTALK_APP, type DingTalkEmulator } from '../src/index.js';

/** A tiny fetch client for the DingTalk emulator tests: real loopback HTTP, JSON in and out. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export async function call(emulator: DingTalkEmulator, method: string, path: string, body?: unknown, token?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-acs-dingtalk-access-token'] = token;
  const response = await fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export async function token(emulator: DingTalkEmulator, app = DEFAULT_DINGTALK_APP): Promise<string> {
  const answer = await call(emulator, 'POST', '/v1.0/oauth2/accessToken', app);
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.accessToken as string;
}

export const TEMPLATE = '382e4302-551d-4880-bf29-a30acfab2e71.schema';

/** A valid createAndDeliver body for a group chat. */
export function groupCard(outTrackId: string, cardParamMap: Record<string, unknown> = { msgContent: 'hello', flowStatus: '2' }) {
  return {
    cardTemplateId: TEMPLATE,
    outTrackId,
    cardData: { cardParamMap },
    openSpaceId: 'dtv1.card//IM_GROUP.cidAbC123==',
    imGroupOpenSpaceModel: { supportForward: true },
    imGroupOpenDeliverModel: { robotCode: 'dingrobot' },
  };
}

/** A valid createAndDeliver body for a robot 1:1 chat. */
export function robotCard(outTrackId: string, userId = 'manager1234') {
  return {
    cardTemplateId: TEMPLATE,
    outTrackId,
    cardData: { cardParamMap: { msgContent: 'hi', flowStatus: '1' } },
    openSpaceId: `dtv1.card//IM_ROBOT.${userId}`,
    imRobotOpenSpaceModel: { supportForward: true },
    imRobotOpenDeliverModel: { spaceType: 'IM_ROBOT', robotCode: 'dingrobot' },
  };
}
