/** The message and people types the plugin contract and its stream contract share. */

/** A sent message as the transport identifies it (Feishu `message_id`, DingTalk `outTrackId`). */
export interface MessageRef {
  readonly id: string;
  /** Anything else the transport needs to update it later. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * The message that triggered a run, for a card sent as a reply to it (`OpenCardOptions.replyTo`).
 * Platforms differ: Feishu replies with `reply_in_thread` (the card lands in the message's topic;
 * https://open.feishu.cn/document/server-docs/im-v1/message/reply), Slack posts with `thread_ts`
 * (https://docs.slack.dev/reference/methods/chat.postMessage), and a channel without replies sends
 * a normal message to the target.
 */
export interface ReplyToMessage {
  /** The platform id of the triggering message (Feishu `om_…`, Slack `ts`). */
  readonly messageId: string;
  /**
   * True: the card goes into the message's thread (topic) rather than the chat's main timeline
   * (Feishu `reply_in_thread: true`). Default false: a quoted reply in the chat where the platform
   * has one (Feishu), the thread where threads are the only kind of reply (Slack).
   */
  readonly inThread?: boolean;
}

/** Who asked for a run, as the platform knows them (Feishu `open_id`, DingTalk `userId`). */
export interface Requester {
  /** Platform user id, used for the @-mention. */
  readonly id: string;
  /** Display name, shown where the platform cannot mention. */
  readonly name?: string;
}
