import { failures } from './errors.js';

/**
 * `openSpaceId` parsing (open.dingtalk.com/document/development/create-and-deliver-cards):
 * `dtv1.card//<SPACE_TYPE>.<spaceId>[;<SPACE_TYPE>.<spaceId>...]`, the prefix fixed, the space type
 * case-insensitive (the docs' examples use lower case, clients upper case).
 */

/** The space types a card can be delivered to. */
export type DingTalkSpaceType = 'IM_GROUP' | 'IM_SINGLE' | 'IM_ROBOT' | 'ONE_BOX';

/** One space of an `openSpaceId`. */
export interface DingTalkSpace {
  readonly spaceType: DingTalkSpaceType;
  /** openConversationId for IM_GROUP / IM_SINGLE / ONE_BOX, userId for IM_ROBOT. */
  readonly spaceId: string;
}

const PREFIX = 'dtv1.card//';
const SPACE_TYPES: readonly DingTalkSpaceType[] = ['IM_GROUP', 'IM_SINGLE', 'IM_ROBOT', 'ONE_BOX'];

/**
 * Splits an `openSpaceId` into its spaces.
 * @throws DingTalkApiFailure 400 `param.openSpaceIdEmpty` when missing, `param.openSpaceIdInvalid`
 *   when the prefix, a space type or a space id is wrong.
 */
export function parseOpenSpaceId(openSpaceId: unknown): DingTalkSpace[] {
  if (openSpaceId === undefined || openSpaceId === null || openSpaceId === '') throw failures.param('param.openSpaceIdEmpty');
  if (typeof openSpaceId !== 'string' || !openSpaceId.startsWith(PREFIX)) throw failures.param('param.openSpaceIdInvalid');
  const parts = openSpaceId.slice(PREFIX.length).split(';');
  return parts.map((part) => {
    const dot = part.indexOf('.');
    if (dot <= 0) throw failures.param('param.openSpaceIdInvalid');
    const type = part.slice(0, dot).toUpperCase() as DingTalkSpaceType;
    const spaceId = part.slice(dot + 1);
    if (!SPACE_TYPES.includes(type) || spaceId.trim() === '') throw failures.param('param.openSpaceIdInvalid');
    return { spaceType: type, spaceId };
  });
}

/** The deliver model each space type needs (createAndDeliver / deliver request fields). */
const DELIVER_MODEL_OF: Readonly<Record<DingTalkSpaceType, string>> = {
  IM_GROUP: 'imGroupOpenDeliverModel',
  IM_SINGLE: 'imSingleOpenDeliverModel',
  IM_ROBOT: 'imRobotOpenDeliverModel',
  ONE_BOX: 'topOpenDeliverModel',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks that every space has its matching deliver model:
 * - IM_GROUP needs `imGroupOpenDeliverModel.robotCode` (required "when that model is used");
 * - IM_ROBOT needs `imRobotOpenDeliverModel` with `spaceType: "IM_ROBOT"` (or another delivery attribute);
 * - IM_SINGLE / ONE_BOX need their model object.
 * @throws DingTalkApiFailure 400 `param.openDeliverModelEmpty` when a model is missing,
 *   `param.openDeliverModelError` when it is malformed.
 */
export function checkDeliverModels(spaces: readonly DingTalkSpace[], body: Record<string, unknown>): void {
  for (const space of spaces) {
    const model = body[DELIVER_MODEL_OF[space.spaceType]];
    if (model === undefined || model === null) throw failures.param('param.openDeliverModelEmpty');
    if (!isObject(model)) throw failures.param('param.openDeliverModelError');
    if (space.spaceType === 'IM_GROUP' && (typeof model.robotCode !== 'string' || model.robotCode === '')) {
      throw failures.param('param.openDeliverModelError');
    }
    if (space.spaceType === 'IM_ROBOT') {
      const hasOther = Object.keys(model).some((k) => k !== 'spaceType');
      if (model.spaceType !== undefined && String(model.spaceType).toUpperCase() !== 'IM_ROBOT') throw failures.param('param.openDeliverModelError');
      if (model.spaceType === undefined && !hasOther) throw failures.param('param.openDeliverModelError');
    }
  }
}
