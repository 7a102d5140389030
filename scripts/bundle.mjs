#!/usr/bin/env node
// Build step after tsc: one esbuild call packs tsc's output into the two files bin/agentpay.js
// requires: dist/agentpay.cjs, the program, one file read and compiled (and kept by Node's
// compile cache) instead of ~35 ES modules resolved one by one; and dist/completion.cjs, the
// answer to a shell's Tab alone (src/completion/answer.ts, Node's built-ins only). tsc still
// builds and type-checks; esbuild only packs what tsc wrote, so the bundle is the checked code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, formatMessages } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const result = await build({
  entryPoints: { agentpay: join(root, 'dist/main.js'), completion: join(root, 'dist/completion/answer.js') },
  outdir: join(root, 'dist'),
  outExtension: { '.js': '.cjs' },
  bundle: true,
  // CommonJS: Node starts no ES module loader for it. main.ts has no top-level await for this.
  format: 'cjs',
  platform: 'node',
  target: 'node22.19',
  // Required from node_modules through their public entry points, and only on the paths that
  // need them: schemas that must decide, tables, scenario files, a PostgreSQL ledger.
  // Everything else loads with every command and is in the bundle.
  external: ['zod', 'yaml', 'pg', 'pgpass'],
  // The version is written in: a run reads no package.json (one broken by hand would stop every command).
  // A CommonJS file has no import.meta: import.meta.dirname is __dirname.
  define: { AGENTPAY_VERSION: JSON.stringify(version), 'import.meta.dirname': '__dirname' },
  // tsc's maps are chained: with --enable-source-maps, stack traces point into src/*.ts.
  sourcemap: 'linked',
  // Without indentation and comments the file is ~30% smaller to read and compile. Names stay.
  minifyWhitespace: true,
  logLevel: 'silent',
});
// A warning is a bundle that could behave differently from tsc's output (a require esbuild
// cannot follow, an import.meta field left empty, ...).
if (result.warnings.length > 0) {
  const text = await formatMessages(result.warnings, { kind: 'warning' });
  process.stderr.write(
    `bundle: esbuild warned; the bundle could behave differently from tsc's output:\n${text.join('\n')}`,
  );
  process.exitCode = 1;
}
