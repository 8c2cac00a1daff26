// A Codex SDK turn mirrored onto a live card: `npm start -w examples/codex-sdk`.
// Default: a scripted event sequence of the shape runStreamed() yields (no network, no key). With
// CODEX_API_KEY (or a logged-in Codex CLI and CODEX_REAL=1), a real turn in the current folder.
import { mirrorCodex, type CodexThreadEvent } from '@progresscard/adapters/codex-sdk';
import { exampleCards } from '@progresscard/example-kit';

const prompt = 'List the package names of this repository';

/** What runStreamed() yields for a short turn: reasoning, a command, the answer, usage. */
async function* scriptedTurn(): AsyncGenerator<CodexThreadEvent> {
  const pause = () => new Promise((r) => setTimeout(r, 800));
  yield { type: 'thread.started', thread_id: 'example-thread' } as CodexThreadEvent;
  yield { type: 'turn.started' };
  yield { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Listing packages**\n\nI will read the workspace folders.' } } as CodexThreadEvent;
  yield { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: "bash -lc 'ls packages'", aggregated_output: '', status: 'in_progress' } } as CodexThreadEvent;
  await pause();
  yield { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: "bash -lc 'ls packages'", aggregated_output: 'adapters\ncli\ncore\nemulator\nsources\n', exit_code: 0, status: 'completed' } } as CodexThreadEvent;
  await pause();
  yield { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: 'The packages are adapters, cli, core, emulator and sources.' } } as CodexThreadEvent;
  yield { type: 'turn.completed', usage: { input_tokens: 5400, cached_input_tokens: 3000, output_tokens: 120 } } as CodexThreadEvent;
}

async function realTurn(): Promise<AsyncIterable<CodexThreadEvent>> {
  const { Codex } = await import('@openai/codex-sdk');
  const thread = new Codex().startThread({ sandboxMode: 'read-only' });
  return (await thread.runStreamed(prompt)).events;
}

const example = await exampleCards();
const card = example.open(prompt);
await mirrorCodex(process.env.CODEX_API_KEY || process.env.CODEX_REAL ? await realTurn() : scriptedTurn(), card, { title: prompt });
await example.finish(card);
