import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CliResult, runCli } from './cli.js';

const probePath = fileURLToPath(new URL('bundle-probe.cjs', import.meta.url));

export interface ProbeReport {
  /** How bin's run of the bundle went: accepted, missing, mismatched, rejected or unused. */
  codeCache: string | null;
  /** Each bundle run, bin's first, then those of dist/vendor, with its code cache. */
  bundles: { bundle: string; codeCache: string }[];
  /** Every file loaded through require (require.cache), absolute paths. */
  required: string[];
  /** process.moduleLoadList: the Node built-ins and bindings loaded. */
  builtins: string[];
}

/**
 * Runs bin/agentpay.js with test/helpers/bundle-probe.cjs preloaded, and reads its report.
 * `cachePath`: the code cache bin's run reads instead of dist/agentpay.cjs.cache; `vendorCaches`: the
 * directory where the vendored bundles' caches are read and learned instead of dist/vendor.
 */
export async function runProbed(
  args: readonly string[],
  options: { env: Record<string, string>; cachePath?: string; vendorCaches?: string; nodeArgs?: readonly string[] },
): Promise<{ result: CliResult; report: ProbeReport }> {
  const reportPath = join(mkdtempSync(join(tmpdir(), 'agentpay-probe-')), 'report.json');
  const env = {
    ...options.env,
    BUNDLE_PROBE_REPORT: reportPath,
    ...(options.cachePath ? { BUNDLE_PROBE_CACHE: options.cachePath } : {}),
    ...(options.vendorCaches ? { BUNDLE_PROBE_VENDOR_CACHES: options.vendorCaches } : {}),
  };
  const result = await runCli(args, { env, nodeArgs: ['--require', probePath, ...(options.nodeArgs ?? [])] });
  return { result, report: JSON.parse(readFileSync(reportPath, 'utf8')) as ProbeReport };
}
