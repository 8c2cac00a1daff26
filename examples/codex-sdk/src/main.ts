// A Codex SDK turn mirrored onto a live card: `npm start -w examples/codex-sdk`.
// Default: a scripted event sequence of the shape runStreamed() yields (no network, no key). With
// CODEX_API_KEY (or a logged-in Codex CLI and CODEX_REAL=1), a real turn in the current folder.
import { readdir } from 'node:fs/promises';
import { mirrorCodex, type CodexThreadEvent } from '@progresscard/adapters/codex-sdk';
import { exampleCards } from '@progresscard/example-kit';

const prompt = 'List the folders under packages/ of this repository';

/** What runStreamed() yields for a short turn: reasoning, a command, the answer, usage. The listing is read from this repository's packages/ folder, so the answer stays true. */
async function* scriptedTurn(): AsyncGenerator<CodexThreadEvent> {
  const folders = (await readdir(new URL('../../../packages/', import.meta.url), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const listing = folders.map((name) => `${name}\n`).join('');
  const answer = `packages/ holds ${folders.length} folders: ${folders.slice(0, -1).join(', ')} and ${folders.at(-1)}.`;
  const pause = () => new Promise((r) => setTimeout(r, 800));
  yield { type: 'thread.started', thread_id: 'example-thread' } as CodexThreadEvent;
  yield { type: 'turn.started' };
  yield { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: '**Listing packages**\n\nI will list the folders under packages/.' } } as CodexThreadEvent;
  yield { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: "bash -lc 'ls packages'", aggregated_output: '', status: 'in_progress' } } as CodexThreadEvent;
  await pause();
  yield { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: "bash -lc 'ls packages'", aggregated_output: listing, exit_code: 0, status: 'completed' } } as CodexThreadEvent;
  await pause();
  yield { type: 'item.completed', item: { id: 'item_2', type: 'agent_message', text: answer } } as CodexThreadEvent;
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
