import { isTerminalStatus, type CardView, type Verbosity } from './view.js';

/** Where a card goes: a one-to-one chat with the bot or a group chat. */
export type ChatType = 'direct' | 'group';

/** A verbosity for every chat, or one per chat type (`{ direct: 'detailed', group: 'compact' }`). */
export type VerbositySetting = Verbosity | { readonly direct?: Verbosity; readonly group?: Verbosity };

/**
 * The defaults per chat type when neither the run nor the channel chooses: everything in a direct
 * message (the person asked and watches), `compact` in a group (many runs, many readers).
 */
export const DEFAULT_VERBOSITY: Readonly<Record<ChatType, Verbosity>> = { direct: 'detailed', group: 'compact' };

/**
 * The verbosity of one card: the run's own choice, else the channel's setting (for the chat type
 * when it has one per type), else {@link DEFAULT_VERBOSITY} for a known chat type, else `detailed`.
 */
export function resolveVerbosity(run: Verbosity | undefined, channel: VerbositySetting | undefined, chatType: ChatType | undefined): Verbosity {
  if (run) return run;
  if (typeof channel === 'string') return channel;
  const perType = chatType ? channel?.[chatType] : undefined;
  if (perType) return perType;
  return chatType ? DEFAULT_VERBOSITY[chatType] : 'detailed';
}

/**
 * The view a renderer gets under a verbosity profile (see {@link Verbosity}). `detailed` returns
 * the view as is. `compact` and `quiet` keep, while running, the status and the current tool call
 * (the latest one) and the plan; on the final card, the answer, its images, the plan, the changed files and the
 * footer, without thinking or the tool history (the footer still counts the calls).
 */
export function viewForVerbosity(view: CardView, verbosity: Verbosity): CardView {
  if (verbosity === 'detailed') return view;
  if (isTerminalStatus(view.status)) return { ...view, thinking: '', tools: [] };
  const current = view.tools.at(-1);
  return { ...view, thinking: '', answer: '', images: [], tools: current ? [current] : [] };
}
