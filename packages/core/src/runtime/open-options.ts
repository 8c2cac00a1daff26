import { z } from 'zod';
import { InteractionUserSchema } from '../events/contract.js';
import { describeInvalidInput } from '../events/invalid-input.js';

const positiveInteger = z.number().int().positive();

/**
 * The shape of `OpenCardOptions` apart from `replyTo`, `quietPeriodMs` and `prices` (checked
 * where they are used). Unknown keys pass (`OpenOptions` adds its own, such as `runId`).
 */
const OpenCardOptionsSchema = z.looseObject({
  title: z.string().optional(),
  locale: z.enum(['zh-CN', 'en', 'auto']).optional(),
  cardPer: z.enum(['run', 'turn']).optional(),
  textBuffer: z.object({ maxSegments: positiveInteger, maxChars: positiveInteger }).optional(),
  message: z.looseObject({ id: z.string().min(1), extra: z.record(z.string(), z.unknown()).optional() }).optional(),
  requester: InteractionUserSchema.optional(),
  verbosity: z.enum(['quiet', 'compact', 'detailed']).optional(),
  chatType: z.enum(['direct', 'group']).optional(),
  redaction: z.union([z.literal(false), z.object({ extraPatterns: z.array(z.instanceof(RegExp)).optional() }).strict()]).optional(),
  completionPing: z
    .union([
      z.literal(false),
      z.object({ afterMs: z.number().int().nonnegative().optional(), onCancelled: z.boolean().optional(), pushedUpBy: z.number().int().min(1).max(100).optional() }).strict(),
    ])
    .optional(),
});

/**
 * Checks the options of `ProgressCards.open`.
 * @throws Error naming the first bad field and its value, e.g.
 *   `open verbosity = "loud": Invalid option: expected one of "quiet"|"compact"|"detailed"`.
 */
export function checkOpenCardShape(options: unknown): void {
  if (options === undefined) return;
  const result = OpenCardOptionsSchema.safeParse(options);
  if (result.success) return;
  const problem = describeInvalidInput(options, result.error);
  throw new Error(`open ${problem.field} = ${problem.shown}: ${problem.reason}`);
}
