// An OpenAI Agents SDK run mirrored onto a live card: `npm start -w examples/openai-agents`.
// Default: a scripted fake model (no network, no key) whose answer follows the Approve / Deny click.
// With OPENAI_API_KEY set, a real model (OPENAI_MODEL, default `gpt-4.1-mini`). The tool needs approval: the card asks (Approve / Deny),
// and the run goes on after the click (on the emulator: in the preview page the example prints).
import { Agent, Runner } from '@openai/agents';
import { approveOnCard, mirrorOpenAIAgents } from '@progresscard/adapters/openai-agents';
import { exampleCards } from '@progresscard/example-kit';
import { lookupOrder } from './lookup-order.js';
import { ScriptedModel } from './scripted-model.js';

const agent = new Agent({ name: 'Support', instructions: 'Answer questions about orders.', tools: [lookupOrder], model: process.env.OPENAI_API_KEY ? (process.env.OPENAI_MODEL ?? 'gpt-4.1-mini') : new ScriptedModel() });

const prompt = 'Where is my order A17?';
const example = await exampleCards();
const card = example.open(prompt);
const runner = new Runner({ tracingDisabled: !process.env.OPENAI_API_KEY });
let result = await runner.run(agent, prompt, { stream: true });
await mirrorOpenAIAgents(result, card, { title: prompt });
// Interrupted for the tool's approval: ask on the card (deny after 2 minutes), then resume on the same card.
const approvalTimeoutMs = 120_000;
while (result.interruptions.length > 0) {
  example.announceApprovalWait(card, approvalTimeoutMs);
  const decisions = await approveOnCard(result, card, { timeoutMs: approvalTimeoutMs });
  console.log(decisions.map((d) => `${d.label}${d.by ? ` by ${d.by.id}` : ''}${d.timedOut ? ' (timed out)' : ''}`).join(', '));
  result = await runner.run(agent, result.state, { stream: true });
  await mirrorOpenAIAgents(result, card, { title: prompt });
}
await example.finish(card);
