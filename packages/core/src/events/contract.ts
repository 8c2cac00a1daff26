import { z } from 'zod';

/**
 * The agent event contract: what an agent product (or a trace source) feeds a {@link ProgressCard}.
 *
 * A discriminated union on `type`. Every event may carry `at`, the time it happened in epoch
 * milliseconds (rounded to whole ms); when absent, the card's clock stamps it on arrival.
 */

/** Earliest `at` accepted: 2000-01-01T00:00:00Z in epoch ms. */
export const EARLIEST_EVENT_TIME_MS = Date.UTC(2000, 0, 1);
/** Latest `at` accepted: 2100-01-01T00:00:00Z in epoch ms. */
export const LATEST_EVENT_TIME_MS = Date.UTC(2100, 0, 1);

/** What an out-of-range `at` most likely is, for the error message. */
function timeUnitHint(value: number): string {
  if (value >= EARLIEST_EVENT_TIME_MS / 1000 && value < LATEST_EVENT_TIME_MS / 1000) return ': this looks like seconds (multiply by 1000)';
  if (value >= EARLIEST_EVENT_TIME_MS * 1000 && value < LATEST_EVENT_TIME_MS * 1000) return ': this looks like microseconds (divide by 1000)';
  if (value >= EARLIEST_EVENT_TIME_MS * 1e6 && value < LATEST_EVENT_TIME_MS * 1e6) return ': this looks like nanoseconds (divide by 1e6)';
  return '';
}

// Fractional epoch ms (`performance.timeOrigin + performance.now()`) are common: rounded, not refused.
// Seconds, microseconds or nanoseconds are refused, naming the unit: taken as ms they would put the
// card in 1970 or the year 55000 (and a clock time past year 275760 cannot be formatted at all).
const at = {
  at: z
    .number()
    .check((ctx) => {
      const value = ctx.value;
      if (!Number.isFinite(value) || value < EARLIEST_EVENT_TIME_MS || value >= LATEST_EVENT_TIME_MS) {
        ctx.issues.push({
          code: 'custom',
          input: value,
          message: `must be epoch milliseconds between 2000-01-01 and 2100-01-01${Number.isFinite(value) ? timeUnitHint(value) : ''}`,
        });
      }
    })
    .transform(Math.round)
    .optional(),
};
const nonEmpty = z.string().min(1);

/** The run began. `locale` selects the card language (`zh-CN` default, `en`). */
export const RunStartedSchema = z.object({
  type: z.literal('run.started'),
  ...at,
  title: z.string().optional(),
  model: z.string().optional(),
  locale: z.enum(['zh-CN', 'en']).optional(),
});
/** A model round (one model call and the tool calls it asked for) began; `round` counts from 1. */
export const RoundStartedSchema = z.object({ type: z.literal('round.started'), ...at, round: z.number().int().positive() });
/** A model round ended. */
export const RoundEndedSchema = z.object({ type: z.literal('round.ended'), ...at, round: z.number().int().positive() });
/** Streamed reasoning text; appended to the thinking text. */
export const ThinkingDeltaSchema = z.object({ type: z.literal('thinking.delta'), ...at, text: z.string() });
/** Streamed answer text; appended to the answer. */
export const AnswerDeltaSchema = z.object({ type: z.literal('answer.delta'), ...at, text: z.string() });
/**
 * A tool call began. `args` is the raw argument text (usually JSON, e.g. `{"command":"npm test"}`)
 * or an already parsed object.
 */
export const ToolStartedSchema = z.object({
  type: z.literal('tool.started'),
  ...at,
  callId: nonEmpty,
  name: nonEmpty,
  args: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  /**
   * The call that runs the subagent or background task this call belongs to (a Claude `Task` /
   * `Agent` call); the card counts it on that call's line.
   */
  parentCallId: nonEmpty.optional(),
});
/** More argument text of a running tool call (streamed arguments); appended to `args`. */
export const ToolArgsDeltaSchema = z.object({ type: z.literal('tool.args_delta'), ...at, callId: nonEmpty, delta: z.string() });
/**
 * An image a tool call returned: base64 `data` with its `mediaType` (`image/png`, as in a Claude
 * `tool_result` image block `{ type: 'image', source: { type: 'base64', media_type, data } }`), or
 * the `path` of a local image file. `alt` is the text shown when it cannot be shown.
 */
export const ImageInputSchema = z.union([
  z.object({ data: nonEmpty, mediaType: z.string().regex(/^image\/[\w.+-]+$/, 'expected an image media type such as image/png'), alt: z.string().optional() }).strict(),
  z.object({ path: nonEmpty, alt: z.string().optional() }).strict(),
]);
/** One image of a tool result (see {@link ImageInputSchema}). */
export type ImageInput = z.infer<typeof ImageInputSchema>;

/**
 * A tool call ended; `summary` is a one-line result, `isError` marks a failed call, `images` are
 * images it returned (shown on the card, uploaded through the channel's image API).
 */
export const ToolFinishedSchema = z.object({
  type: z.literal('tool.finished'),
  ...at,
  callId: nonEmpty,
  summary: z.string().optional(),
  isError: z.boolean().optional(),
  images: z.array(ImageInputSchema).max(20).optional(),
});
/**
 * Token usage of one model call. `inputTokens` and `outputTokens` add up over the run;
 * `contextTokens` / `contextWindow` (tokens in the context now / its size) replace earlier values.
 */
export const UsageSchema = z.object({
  type: z.literal('usage'),
  ...at,
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  contextTokens: z.number().int().nonnegative().optional(),
  contextWindow: z.number().int().positive().optional(),
  model: z.string().optional(),
  /**
   * What the run has cost so far in US dollars as the source reports it (Claude's `total_cost_usd`);
   * replaces earlier values. Without it the card may price the tokens with the product's price table
   * (`OpenCardOptions.prices`).
   */
  totalCostUsd: z.number().nonnegative().optional(),
});
/** The state of one plan item: `pending` (○), `in_progress` (▶), `completed` (✅). */
export const PlanItemStatusSchema = z.enum(['pending', 'in_progress', 'completed']);
/** One item of the agent's plan: what to do and how far it is. */
export const PlanItemSchema = z.object({ text: z.string(), status: PlanItemStatusSchema });
/**
 * The agent's plan (checklist) as it stands now, e.g. Claude Code `TodoWrite`, Codex `update_plan`:
 * the whole list each time; it replaces the previous one. An empty list clears the plan.
 */
export const PlanUpdatedSchema = z.object({ type: z.literal('plan.updated'), ...at, items: z.array(PlanItemSchema) });
/**
 * A file was written by the agent (a Write / Edit / apply_patch tool call that succeeded). `added` and
 * `removed` count lines when the source knows them; repeated changes of one path add up.
 * `kind`: `added` (a new file), `deleted`, or `modified` (default).
 */
export const FileChangedSchema = z.object({
  type: z.literal('file.changed'),
  ...at,
  path: nonEmpty,
  added: z.number().int().nonnegative().optional(),
  removed: z.number().int().nonnegative().optional(),
  kind: z.enum(['added', 'modified', 'deleted']).optional(),
});
/**
 * A file the agent produced (a report, a patch, a chart) to send into the chat with the card: the
 * channel uploads it and the final card names it, or says why it could not. `path` is read only
 * inside the channel's opt-in roots (the same as local images, `imageRoots`); `name` is the file
 * name shown (default the path's last part).
 */
export const AttachmentSchema = z.object({
  type: z.literal('attachment'),
  ...at,
  path: nonEmpty,
  name: z.string().min(1).max(200).optional(),
});
/**
 * One answer the card offers as a button. `id` is what the decision reports; `label` is shown;
 * `style` colours the button (`primary` blue, `danger` red); `approves` marks the options that
 * grant a permission (an approval's "Approve").
 */
export const InteractionOptionSchema = z.object({
  id: nonEmpty.max(64),
  label: nonEmpty.max(40),
  style: z.enum(['default', 'primary', 'danger']).optional(),
  approves: z.boolean().optional(),
});
/** One option of an interaction (see {@link InteractionOptionSchema}). */
export type InteractionOption = z.infer<typeof InteractionOptionSchema>;

/**
 * The agent waits for the user (a permission prompt, a question); the card shows "waiting".
 * `callId` names the tool call that asked (e.g. a shell command awaiting approval): its
 * `tool.finished` ends the wait. Without it, the call started last before the request is taken.
 * With `interactionId` the card offers controls: a button per option (at most 5) and, with
 * `freeText`, a text box; a click is answered by `interaction.resolved` with the same id.
 */
export const InteractionRequestedSchema = z.object({
  type: z.literal('interaction.requested'),
  ...at,
  prompt: z.string(),
  callId: nonEmpty.optional(),
  interactionId: nonEmpty.max(64).optional(),
  options: z.array(InteractionOptionSchema).max(5).optional(),
  freeText: z.boolean().optional(),
});
/** Who decided an interaction: the platform user id (Feishu open_id, DingTalk userId) and a display name. */
export const InteractionUserSchema = z.object({ id: nonEmpty, name: z.string().optional() });
/** A user who clicked a control (see {@link InteractionUserSchema}). */
export type InteractionUser = z.infer<typeof InteractionUserSchema>;
/**
 * The user answered (approved, denied, replied): the card stops waiting and shows the run again.
 * Any later progress (text, a tool starting, the asking call finishing) ends the wait as well.
 * With `interactionId` the card shows the decision: the chosen option (`optionId`, `label`), the
 * free text answer (`text`), who decided (`by`), or that it timed out (`timedOut`).
 */
export const InteractionResolvedSchema = z.object({
  type: z.literal('interaction.resolved'),
  ...at,
  interactionId: nonEmpty.max(64).optional(),
  optionId: z.string().optional(),
  label: z.string().optional(),
  text: z.string().optional(),
  by: InteractionUserSchema.optional(),
  approved: z.boolean().optional(),
  timedOut: z.boolean().optional(),
});
/** The run ended well. A non-empty `answer` replaces the streamed answer text. */
export const RunCompletedSchema = z.object({ type: z.literal('run.completed'), ...at, answer: z.string().optional() });
/** The run ended with an error. */
export const RunFailedSchema = z.object({ type: z.literal('run.failed'), ...at, error: z.string() });
/** The run was stopped (by the user or the product). */
export const RunCancelledSchema = z.object({ type: z.literal('run.cancelled'), ...at, reason: z.string().optional() });

/** Zod schema of every agent event. */
export const AgentEventSchema = z.discriminatedUnion('type', [
  RunStartedSchema,
  RoundStartedSchema,
  RoundEndedSchema,
  ThinkingDeltaSchema,
  AnswerDeltaSchema,
  ToolStartedSchema,
  ToolArgsDeltaSchema,
  ToolFinishedSchema,
  UsageSchema,
  PlanUpdatedSchema,
  FileChangedSchema,
  AttachmentSchema,
  InteractionRequestedSchema,
  InteractionResolvedSchema,
  RunCompletedSchema,
  RunFailedSchema,
  RunCancelledSchema,
]);

/** One agent event (see {@link AgentEventSchema}). */
export type AgentEvent = z.infer<typeof AgentEventSchema>;
/** The `type` names of agent events. */
export type AgentEventType = AgentEvent['type'];
/** The event of one given type. */
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** One plan item (see {@link PlanItemSchema}). */
export type PlanItem = z.infer<typeof PlanItemSchema>;
/** A plan item's state (see {@link PlanItemStatusSchema}). */
export type PlanItemStatus = z.infer<typeof PlanItemStatusSchema>;

/** Event types that end a run. */
export const TERMINAL_EVENT_TYPES = ['run.completed', 'run.failed', 'run.cancelled'] as const;

/** True for `run.completed`, `run.failed` and `run.cancelled`. */
export function isTerminalEvent(event: AgentEvent): event is EventOf<'run.completed' | 'run.failed' | 'run.cancelled'> {
  return (TERMINAL_EVENT_TYPES as readonly string[]).includes(event.type);
}

