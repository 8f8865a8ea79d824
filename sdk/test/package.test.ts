import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);
const npmExecPath = process.env.npm_execpath ?? '';
/** pnpm packs with `workspace:*` rewritten and publishConfig applied (npm would not). Async, so vitest's worker stays responsive. */
const pnpm = (args: string[], cwd: string) =>
  npmExecPath.includes('pnpm')
    ? run(process.execPath, [npmExecPath, ...args], { cwd })
    : run('npx', ['-y', 'pnpm@10.34.8', ...args], { cwd });

/**
 * Packs @gathercast/contract and @gathercast/sdk exactly as they would be published and installs the
 * tarballs in a blank project, then uses the SDK from CommonJS, ESM and strict TypeScript.
 */
describe('the published SDK package', () => {
  let project: string;

  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), 'gc-sdk-consumer-'));
    const packs = path.join(project, 'packs');
    mkdirSync(packs);
    await Promise.all(['contract', 'sdk'].map((pkg) => pnpm(['run', 'build'], path.join(root, pkg))));
    for (const pkg of ['contract', 'sdk']) await pnpm(['pack', '--pack-destination', packs], path.join(root, pkg));
    const tarballs = readdirSync(packs);
    const tarball = (name: string) => `file:./packs/${tarballs.find((t) => t.startsWith(`gathercast-${name}-`))}`;
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        dependencies: { '@gathercast/sdk': tarball('sdk'), '@gathercast/contract': tarball('contract') },
        devDependencies: { typescript: '5.9.3' },
      }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
  }, 300_000);

  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const program = (importLine: string) => `${importLine}
const gc = createClient({
  baseUrl: 'http://api.test',
  apiKey: 'gck_x',
  fetch: async () => new Response(JSON.stringify({ type: 't', code: 'invalid_state', detail: 'live' }), {
    status: 409, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'r1' } }),
});
gc.events.publish({ params: { id: '00000000-0000-4000-8000-000000000000' } }).then(
  () => { console.log('unexpected success'); process.exit(1); },
  (e) => { console.log(e instanceof GathercastError, e.code, e.status, e.requestId); },
);
`;

  it('works from CommonJS', () => {
    writeFileSync(path.join(project, 'main.cjs'), program("const { createClient, GathercastError } = require('@gathercast/sdk');"));
    expect(execFileSync(process.execPath, ['main.cjs'], { cwd: project, encoding: 'utf8' }).trim()).toBe('true invalid_state 409 r1');
  });

  it('works from ESM', () => {
    writeFileSync(path.join(project, 'main.mjs'), program("import { createClient, GathercastError } from '@gathercast/sdk';"));
    expect(execFileSync(process.execPath, ['main.mjs'], { cwd: project, encoding: 'utf8' }).trim()).toBe('true invalid_state 409 r1');
  });

  it('type-checks a strict TypeScript consumer, and rejects a wrong body', async () => {
    writeFileSync(
      path.join(project, 'main.ts'),
      `import { createClient, type Event } from '@gathercast/sdk';
const gc = createClient({ baseUrl: 'http://api.test', apiKey: 'gck_x' });
export async function make(): Promise<Event> {
  return gc.events.create({ body: { type: 'webinar', title: 'Launch' } });
}
// @ts-expect-error title must be a string
gc.events.create({ body: { type: 'webinar', title: 42 } });
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], noEmit: true, skipLibCheck: false },
        files: ['main.ts'],
      }),
    );
    const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', '.'], { cwd: project }).then(
      () => 'clean',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    expect(result).toBe('clean');
  }, 240_000);
});
