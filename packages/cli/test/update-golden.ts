/** `npm run smoke:golden`: writes the golden payload fixtures again after an intended renderer change. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { goldenFile, goldenText, renderAllGolden } from './golden.js';

for (const { channel, scenario, payloads } of renderAllGolden()) {
  const file = goldenFile(channel, scenario);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, goldenText(payloads));
  console.log(`wrote ${file}`);
}
