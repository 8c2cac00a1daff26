// `npm run api:update`: rewrites api/*.api.txt from the current sources (and removes reports of
// entry points that no longer exist). Review the diff: it is the public API change.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { API_DIR, currentReport, publishedEntryPoints } from './api-report.js';

mkdirSync(API_DIR, { recursive: true });
const entries = publishedEntryPoints();
const wanted = new Set(entries.map((e) => e.reportFile));
for (const file of readdirSync(API_DIR)) {
  if (file.endsWith('.api.txt') && !wanted.has(file)) {
    rmSync(`${API_DIR}${file}`);
    console.log(`removed api/${file}`);
  }
}
for (const entry of entries) {
  writeFileSync(`${API_DIR}${entry.reportFile}`, await currentReport(entry));
  console.log(`wrote api/${entry.reportFile} (${entry.specifier})`);
}
