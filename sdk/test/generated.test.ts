import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const sdk = path.resolve(__dirname, '..');

it('src/generated/api.ts is what the contract generates (run `pnpm --filter @gathercast/sdk generate`)', async () => {
  const tsx = path.join(sdk, '../node_modules/.bin/tsx');
  const result = await run(tsx, ['scripts/generate-api.ts', '--check'], { cwd: sdk }).then(
    () => 'current',
    (err: { stderr?: string }) => err.stderr ?? String(err),
  );
  expect(result).toBe('current');
}, 240_000);

it('VERSION (sent in User-Agent) is the version in package.json (`pnpm release:version` keeps them equal)', async () => {
  const { VERSION } = await import('../src/version');
  const { readFileSync } = await import('node:fs');
  expect(VERSION).toBe(JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8')).version);
});
