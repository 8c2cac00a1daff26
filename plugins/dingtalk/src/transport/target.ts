import { z } from 'zod';

/**
 * Where a DingTalk card goes:
 * - `{ type: 'group', openConversationId }`: a group chat (`cid…==`), delivered by the robot;
 * - `{ type: 'user', userId }`: the robot's 1:1 chat with that user (staff userId).
 */
export type DingTalkTarget =
  | { readonly type: 'group'; readonly openConversationId: string }
  | { readonly type: 'user'; readonly userId: string };

/** Zod schema of {@link DingTalkTarget}. */
export const DingTalkTargetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('group'), openConversationId: z.string().trim().min(1) }),
  z.object({ type: z.literal('user'), userId: z.string().trim().min(1) }),
]);

/**
 * The delivery fields of `createAndDeliver` for a target
 * (https://open.dingtalk.com/document/development/create-and-deliver-cards):
 * - group: `openSpaceId = dtv1.card//IM_GROUP.<openConversationId>` with `imGroupOpenDeliverModel.robotCode`;
 * - user: `openSpaceId = dtv1.card//IM_ROBOT.<userId>` with `imRobotOpenDeliverModel.spaceType = "IM_ROBOT"`.
 * `supportForward` is required when a space model is present.
 */
export function deliveryFields(target: DingTalkTarget, robotCode: string): Record<string, unknown> {
  if (target.type === 'group') {
    return {
      openSpaceId: `dtv1.card//IM_GROUP.${target.openConversationId}`,
      imGroupOpenSpaceModel: { supportForward: true },
      imGroupOpenDeliverModel: { robotCode },
    };
  }
  return {
    openSpaceId: `dtv1.card//IM_ROBOT.${target.userId}`,
    imRobotOpenSpaceModel: { supportForward: true },
    imRobotOpenDeliverModel: { spaceType: 'IM_ROBOT', robotCode },
  };
}

/** Short description for logs and errors, e.g. `group cid…==`. */
export function describeTarget(target: DingTalkTarget): string {
  return target.type === 'group' ? `group ${target.openConversationId}` : `user ${target.userId}`;
}
