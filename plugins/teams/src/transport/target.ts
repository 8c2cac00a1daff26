import { conversationTypeOf, type TeamsConversationType } from '../config.js';

/** Where a card goes: a conversation id (its type inferred), or a conversation with its type and `serviceUrl`. */
export type TeamsTarget =
  | string
  | {
      readonly conversationId: string;
      readonly conversationType?: TeamsConversationType;
      /** The `serviceUrl` of the activities Teams sent from this conversation (default: the config's). */
      readonly serviceUrl?: string;
    };

/** A resolved conversation. */
export interface TeamsConversationRef {
  readonly id: string;
  readonly type: TeamsConversationType;
  readonly serviceUrl?: string;
}

/** The conversation a target names, undefined for none (the configured one). */
export function conversationOf(target: TeamsTarget | undefined): TeamsConversationRef | undefined {
  if (target === undefined) return undefined;
  if (typeof target === 'string') return { id: target, type: conversationTypeOf(target) };
  return { id: target.conversationId, type: conversationTypeOf(target.conversationId, target.conversationType), ...(target.serviceUrl ? { serviceUrl: target.serviceUrl } : {}) };
}
