import { describeInvalidInput } from '@progresscard/core';
import { z } from 'zod';

/** receive_id_type values of `im.v1.message.create`. */
export const RECEIVE_ID_TYPES = ['chat_id', 'open_id', 'user_id', 'union_id', 'email'] as const;
export type ReceiveIdType = (typeof RECEIVE_ID_TYPES)[number];

const positiveInt = z.number().int().positive();

/**
 * Config of {@link feishu}. Durations in ms.
 * - `domain`: `feishu` (open.feishu.cn, default), `lark` (open.larksuite.com) or a base URL such as
 *   the emulator's `http://127.0.0.1:PORT` (no trailing slash needed).
 * - `receiveIdType` + `receiveId`: where cards go (a chat by default); a target given to `open()` overrides them.
 * - `replyToMessageId` / `replyInThread`: send cards as replies to a message (in its thread).
 * - `locale`: forces the card language; default: the run's (zh-CN unless `run.started` says `en`).
 * - `tickMs`, `perCardIntervalMs`, `debounceMs`, `budget`: override the channel defaults.
 * - `requestTimeoutMs`: abort a platform call after this long (default 10000).
 * - `overflow`: an answer too long for one card continues in follow-up cards (default) or is only cut.
 */
export const FeishuConfigSchema = z
  .object({
    appId: z.string().min(1),
    appSecret: z.string().min(1),
    domain: z.union([z.enum(['feishu', 'lark']), z.url({ protocol: /^https?$/ })]).default('feishu'),
    receiveIdType: z.enum(RECEIVE_ID_TYPES).default('chat_id'),
    receiveId: z.string().min(1).optional(),
    replyToMessageId: z.string().min(1).optional(),
    replyInThread: z.boolean().default(false),
    locale: z.enum(['zh-CN', 'en']).optional(),
    footerStyle: z.enum(['compact', 'debug']).default('compact'),
    timeZone: z.string().min(1).optional(),
    tickMs: positiveInt.optional(),
    perCardIntervalMs: z.number().int().nonnegative().optional(),
    debounceMs: z.number().int().nonnegative().optional(),
    budget: z.array(z.object({ limit: positiveInt, intervalMs: positiveInt }).strict()).min(1).optional(),
    requestTimeoutMs: positiveInt.default(10_000),
    overflow: z.enum(['follow-up', 'truncate']).default('follow-up'),
  })
  .strict();

/** Config as written by the user. */
export type FeishuConfigInput = z.input<typeof FeishuConfigSchema>;
/** Config with defaults applied. */
export type FeishuConfig = z.output<typeof FeishuConfigSchema>;

/** Bad config: the message names the field and the value (secrets are shown as `<hidden>`). */
export class FeishuConfigError extends Error {
  override readonly name = 'FeishuConfigError';
  constructor(
    message: string,
    /** Dotted path of the bad field, e.g. `budget.0.limit`. */
    readonly field: string,
  ) {
    super(message);
  }
}

const SECRET_FIELDS = new Set(['appSecret']);

/**
 * Validates and completes a config.
 * @throws FeishuConfigError naming the first bad field and its value, e.g.
 *   `feishu config: receiveIdType = "chat" (Invalid option: expected one of "chat_id"|…)`.
 */
export function parseFeishuConfig(input: unknown): FeishuConfig {
  const result = FeishuConfigSchema.safeParse(input);
  if (result.success) {
    if (result.data.timeZone) {
      try {
        new Intl.DateTimeFormat('en', { timeZone: result.data.timeZone });
      } catch {
        throw new FeishuConfigError(`feishu config: timeZone = ${JSON.stringify(result.data.timeZone)} (not an IANA time zone)`, 'timeZone');
      }
    }
    return result.data;
  }
  const problem = describeInvalidInput(input, result.error, SECRET_FIELDS);
  const field = problem.field === '(input)' ? '(config)' : problem.field;
  const message = result.error.issues[0]!.code === 'unrecognized_keys' ? 'unknown field' : problem.reason;
  throw new FeishuConfigError(`feishu config: ${field} = ${problem.shown} (${message})`, field);
}
