#!/usr/bin/env node
// Rewrites the settings table of docs/configuration.md from src/settings/table.ts (through
// the compiled dist/settings/docs-table.js): `npm run docs:settings`.
import { readFileSync, writeFileSync } from 'node:fs';

const { withSettingsTable } = await import(new URL('../dist/settings/docs-table.js', import.meta.url).href);
const path = new URL('../docs/configuration.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withSettingsTable(before);
if (after === before) console.log('docs/configuration.md: the settings table is up to date');
else {
  writeFileSync(path, after);
  console.log('docs/configuration.md: settings table rewritten');
}
