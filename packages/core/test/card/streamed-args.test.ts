import { describe, expect, it } from 'vitest';
import { CardState } from '../../src/index.js';

/**
 * A tool whose arguments stream in (a file write: `{"file_path":…,"content":"<a whole file>"}`)
 * sends thousands of `tool.args_delta` events. Each one used to re-read every argument character
 * so far: 1 MB of content blocked the event loop for close to a minute.
 */
describe('streamed tool arguments', () => {
  // How long this takes is a figure of `npm run bench:core` ("streamed tool arguments"), not an assertion here.
  it('1 MB streamed in 20 000 deltas still shows the path on the line', () => {
    const state = new CardState({ startedAt: 0 });
    state.apply({ type: 'tool.started', callId: 'w', name: 'write_file' }, 0);
    state.apply({ type: 'tool.args_delta', callId: 'w', delta: '{"file_path":"src/big.ts","content":"' }, 1);
    const chunk = 'const a = 1;\\n' + 'x'.repeat(36); // 50 characters
    for (let i = 0; i < 20_000; i++) state.apply({ type: 'tool.args_delta', callId: 'w', delta: chunk }, 2);
    state.apply({ type: 'tool.args_delta', callId: 'w', delta: '"}' }, 3);
    expect(state.view(4).tools[0]!.text).toBe('write_file: `src/big.ts`（执行中）');
  });

  it('a command still streaming updates the line as it grows', () => {
    const state = new CardState({ startedAt: 0 });
    state.apply({ type: 'tool.started', callId: 's', name: 'shell' }, 0);
    state.apply({ type: 'tool.args_delta', callId: 's', delta: '{"command":"npm te' }, 1);
    expect(state.view(2).tools[0]!.detail).toBe('npm te');
    expect(state.apply({ type: 'tool.args_delta', callId: 's', delta: 'st"}' }, 3).change).toBe('structural');
    expect(state.view(4).tools[0]!.detail).toBe('npm test');
  });
});
