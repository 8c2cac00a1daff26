import { mockOpenAIResponses } from './mock-openai.js';
import { Codex } from '@openai/codex-sdk';
import { mkdirSync } from 'node:fs';
mkdirSync('/tmp/codex-home', { recursive: true });
const server = await mockOpenAIResponses([{ tool: 'exec_command', input: { cmd: 'sleep 1 && echo done' } }, { text: 'All done, the command printed done.' }]);
const codex = new Codex({ env: { PATH: process.env.PATH!, HOME: '/tmp/codex-home', CODEX_HOME: '/tmp/codex-home', MOCK_API_KEY: 'sk-test' }, config: { model_provider: 'mock', model_providers: { mock: { name: 'mock', base_url: `${server.baseUrl}/v1`, wire_api: 'responses', env_key: 'MOCK_API_KEY', supports_websockets: false, request_max_retries: 0, stream_max_retries: 0 } } } });
const thread = codex.startThread({ model: 'gpt-5.5-codex', workingDirectory: '/tmp', skipGitRepoCheck: true, approvalPolicy: 'never', sandboxMode: 'danger-full-access' });
const t0 = Date.now();
try {
  const { events } = await thread.runStreamed('Run sleep');
  for await (const e of events) console.log(Date.now() - t0, JSON.stringify(e).slice(0, 220));
} catch (e) { console.log('ERR', String(e).slice(0, 800)); }
for (const r of server.requests) console.log(r.path, r.body.model, (r.body.tools ?? []).map((t: any) => t.name ?? t.type).join(','));
await server.close();
