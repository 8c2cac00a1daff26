import type { Locale } from '../card/view.js';

/** What the core says to a clicking user (toasts) and the default buttons, per card language. */
export interface InteractionTexts {
  readonly approve: string;
  readonly deny: string;
  readonly decided: (label: string) => string;
  readonly stopped: string;
  readonly alreadyDecided: (by: string | undefined) => string;
  readonly notAllowed: string;
  readonly stale: string;
  readonly invalid: string;
  readonly stoppedReason: (by: string) => string;
  /** Reason of a run the user stopped with the platform's own Stop (who pressed it is not known). */
  readonly stoppedOnPlatform: string;
}

/** {@link InteractionTexts} by locale. */
export const INTERACTION_TEXTS: Readonly<Record<Locale, InteractionTexts>> = {
  'zh-CN': {
    approve: '批准',
    deny: '拒绝',
    decided: (label) => `已提交：${label}`,
    stopped: '正在停止运行',
    alreadyDecided: (by) => (by ? `已由 ${by} 处理，无需再次操作` : '已超时处理，无需再次操作'),
    notAllowed: '抱歉，只有发起人或指定成员可以处理此请求',
    stale: '该按钮来自已结束的运行或轮次，未执行任何操作',
    invalid: '无效的选择，请重试',
    stoppedReason: (by) => `已由 ${by} 停止`,
    stoppedOnPlatform: '已在聊天中停止',
  },
  en: {
    approve: 'Approve',
    deny: 'Deny',
    decided: (label) => `Sent: ${label}`,
    stopped: 'Stopping the run',
    alreadyDecided: (by) => (by ? `Already decided by ${by}` : 'Already decided (timed out)'),
    notAllowed: 'Sorry, only the requester or the allowed users can decide this one',
    stale: 'This button belongs to an earlier run or turn; nothing was done',
    invalid: 'That is not one of the choices; please try again',
    stoppedReason: (by) => `Stopped by ${by}`,
    stoppedOnPlatform: 'Stopped in the chat',
  },
};
