import { tool } from '@openai/agents';
import { z } from 'zod';

/** The example's tool: where an order is. It needs approval, so the card asks before it runs. */
export const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Where an order is',
  parameters: z.object({ orderId: z.string() }),
  needsApproval: true,
  execute: async ({ orderId }) => `order ${orderId} shipped yesterday and arrives on Friday`,
});
