// Injected by scripts/bundle.mjs into dist/agentpay.cjs, where esbuild replaces every
// `import.meta.url` with this value: a CommonJS file has no import.meta, and without it esbuild
// would leave `undefined`. `require` and `__filename` are those of the bundle, so the URL is the
// bundle's own, in dist/ like the tsc output it replaces (cli.ts finds ../package.json from it).
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
