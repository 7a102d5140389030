import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

// The rules `npm run lint` checks src/ with, run here on small trees shaped like src/.
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test/fixtures/layers');

async function lint(tree: string): Promise<{ exitCode: number; output: string }> {
  const configUrl = pathToFileURL(join(root, '.dependency-cruiser.js')).href;
  const config: IConfiguration = (await import(configUrl)).default;
  const { cache: _cache, tsConfig: _tsConfig, ...options } = config.options ?? {};
  const result = await cruise(['src'], {
    ...options,
    baseDir: join(fixtures, tree),
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
    outputType: 'err',
  });
  return { exitCode: result.exitCode, output: String(result.output) };
}

describe('the layers lint', () => {
  it('fails a forbidden import and a circle with the names of the rules they break', async () => {
    const { exitCode, output } = await lint('forbidden');
    expect(exitCode).toBeGreaterThan(0);
    expect(output).toContain(
      'gateway-imports-only-protocol-and-utilities: src/gateway/client.ts → src/render/receipt.ts',
    );
    expect(output).toContain('protocol-imports-only-itself: src/protocol/form.ts → src/gateway/client.ts');
    expect(output).toMatch(/no-circular: src\/scenario\/(run|step)\.ts →/);
  });

  it('passes a tree whose imports go down only', async () => {
    const { exitCode, output } = await lint('clean');
    expect(output).not.toContain('error');
    expect(exitCode).toBe(0);
  });
});
