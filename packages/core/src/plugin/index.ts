/**
 * `@progresscard/core/plugin`: everything a channel plugin needs, and nothing else. The contract
 * (renderer, transport, failure kinds, interaction), {@link defineChannel} that does the steps every
 * factory shares, the view a renderer draws, and the kit (text cutting, status words, footer,
 * config and env helpers, link neutralising, images, the callback server). A plugin imports only
 * this entry point (and `@progresscard/core/testing` in its tests).
 */
export * from './contract.js';
export type { StandardSchemaV1 } from '../shared/standard-schema.js';
export {
  defineChannel,
  type ChannelDefinition,
  type ChannelContext,
  type ChannelParts,
  type ChannelFactory,
  type ChannelConfigErrorClass,
  type DefinedChannel,
  type DefinedChannelOptions,
  type RendererSettings,
  type BudgetKeysOf,
} from './define-channel.js';
export { hideSecrets, HIDDEN } from './kit/secrets.js';
export * from './kit/index.js';
export { tickEnvName } from './channel-settings.js';

// The view a renderer draws, and the core's own texts for it.
export * from '../card/view.js';
export { toolLineText, MAX_TOOL_DETAIL_CHARS, type ToolLineParts } from '../card/tool-lines.js';
export {
  toolTree,
  toolTreeRows,
  fitToolTree,
  childToolText,
  hiddenChildrenText,
  MAX_SUBAGENT_CHILDREN,
  type ToolTree,
  type ToolTreeEntry,
  type ToolTreeOptions,
  type ToolTreeRow,
} from '../card/tool-tree.js';
export { formatDuration } from '../card/format/duration.js';
export { formatCount } from '../card/format/count.js';
export { formatFooter, formatTokenCount, formatClockTime, formatCost, FOOTER_FIELDS, type FooterStyle, type FooterField, type FooterOptions } from '../card/format/footer.js';
export type { CardImage, CardImageSource } from '../card/images.js';
export { attachmentText, MAX_CARD_ATTACHMENTS, type CardAttachment } from '../card/attachments.js';
export { MAX_TIMER_MS } from '../shared/timer-duration.js';
export { showValue } from '../shared/show-value.js';

// Clicks on card controls, as an interaction receives and answers them.
export { INTERACTION_TEXTS, type InteractionTexts } from './interaction-texts.js';
export type { ClickHandler, ClickOutcome, ClickReply, ControlClick } from './click-contract.js';

/**
 * The zod the kit's shapes (`TIMING_OVERRIDES_SHAPE`, `FEATURE_SWITCHES_SHAPE`, `HttpUrlSchema`) are
 * built with: build a config schema from it and the shapes fit, whatever zod your package depends on.
 */
export { z } from 'zod';
