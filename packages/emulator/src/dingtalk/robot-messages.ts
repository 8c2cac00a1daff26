import { randomHex } from '../common/index.js';
import { DingTalkApiFailure } from './errors.js';
import type { DingTalkMediaStore } from './media.js';

/**
 * Robot messages: `POST /v1.0/robot/groupMessages/send` (a group) and
 * `POST /v1.0/robot/oToMessages/batchSend` (1:1 chats), the plain messages a robot posts
 * (https://open.dingtalk.com/document/orgapp/the-robot-sends-a-group-message,
 * https://open.dingtalk.com/document/orgapp/chatbots-send-one-on-one-chat-messages-in-batches).
 * `msgParam` must be a JSON string of at most 15 000 bytes. A `sampleFile` message's `msgParam`
 * is `{mediaId, fileName, fileType}` (community SDKs and connectors; UNCONFIRMED against the
 * official page, https://open.dingtalk.com/document/development/robot-message-type): its `mediaId`
 * must name a file uploaded to `/media/upload`.
 */

/** One robot message the emulator accepted. */
export interface DingTalkRobotMessage {
  /** `processQueryKey` the answer carried. */
  readonly processQueryKey: string;
  readonly robotCode: string;
  /** The group (`groupMessages/send`), or absent for 1:1 messages. */
  readonly openConversationId?: string;
  /** The users (`oToMessages/batchSend`), or absent for a group message. */
  readonly userIds?: readonly string[];
  /** E.g. `sampleText`, `sampleMarkdown`. */
  readonly msgKey: string;
  /** `msgParam`, parsed. */
  readonly msgParam: Record<string, unknown>;
  /** Epoch ms. */
  readonly sentAt: number;
}

const MAX_MSG_PARAM_BYTES = 15_000;

const invalid = (code: string, message = code) => new DingTalkApiFailure(400, code, message);

/**
 * Validates a robot message body and stores it.
 * @throws DingTalkApiFailure 400 `invalidParameter.*` naming the bad field.
 */
export function acceptRobotMessage(body: unknown, kind: 'group' | 'user', at: number, store: DingTalkRobotMessage[], media?: DingTalkMediaStore): { processQueryKey: string } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.robotCode !== 'string' || b.robotCode === '') throw invalid('invalidParameter.robotCode.empty');
  if (typeof b.msgKey !== 'string' || b.msgKey === '') throw invalid('invalidParameter.msgKey.empty');
  if (typeof b.msgParam !== 'string') throw invalid('invalidParameter.msgParam.invalid');
  if (Buffer.byteLength(b.msgParam, 'utf8') > MAX_MSG_PARAM_BYTES) throw invalid('invalidParameter.msgParam.tooLong');
  let msgParam: unknown;
  try {
    msgParam = JSON.parse(b.msgParam);
  } catch {
    throw invalid('invalidParameter.msgParam.invalid');
  }
  if (typeof msgParam !== 'object' || msgParam === null) throw invalid('invalidParameter.msgParam.invalid');
  if (b.msgKey === 'sampleFile') checkFileParam(msgParam as Record<string, unknown>, media);
  const processQueryKey = `${randomHex(16)}=`;
  if (kind === 'group') {
    if (typeof b.openConversationId !== 'string' || b.openConversationId === '') throw invalid('invalidParameter.openConversationId.empty');
    store.push({ processQueryKey, robotCode: b.robotCode, openConversationId: b.openConversationId, msgKey: b.msgKey, msgParam: msgParam as Record<string, unknown>, sentAt: at });
  } else {
    const userIds = b.userIds;
    if (!Array.isArray(userIds) || userIds.length === 0 || !userIds.every((u) => typeof u === 'string' && u !== '')) throw invalid('invalidParameter.userIds.empty');
    store.push({ processQueryKey, robotCode: b.robotCode, userIds: userIds as string[], msgKey: b.msgKey, msgParam: msgParam as Record<string, unknown>, sentAt: at });
  }
  return { processQueryKey };
}

/** A `sampleFile` message names an uploaded file, its name and its type (the extension). */
function checkFileParam(param: Record<string, unknown>, media: DingTalkMediaStore | undefined): void {
  if (typeof param.mediaId !== 'string' || !media?.get(param.mediaId)) throw invalid('invalidParameter.mediaId.invalid', `mediaId = ${JSON.stringify(param.mediaId)} (no such uploaded file)`);
  if (typeof param.fileName !== 'string' || param.fileName === '') throw invalid('invalidParameter.fileName.empty');
  if (typeof param.fileType !== 'string' || param.fileType === '') throw invalid('invalidParameter.fileType.empty');
}
