import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sdk = path.resolve(__dirname, '..');
const run = promisify(execFile);
const npmExecPath = process.env.npm_execpath ?? '';
/** pnpm, run the way this test was started when it was (async, so vitest's worker stays responsive). */
const pnpm = (args: string[], cwd: string) =>
  npmExecPath.includes('pnpm')
    ? run(process.execPath, [npmExecPath, ...args], { cwd })
    : run('npx', ['-y', 'pnpm@10.34.8', ...args], { cwd });
const tsc = path.join(sdk, 'node_modules/typescript/bin/tsc');
/** Built once for both packers: what is packed is what the sources say now. */
let built: Promise<unknown> | undefined;

/** A fetch answering 409 invalid_state, so a program shows the SDK worked end to end without a server. */
const program = (importLine: string) => `${importLine}
const gc = createClient({
  baseUrl: 'http://api.test',
  apiKey: 'gck_x',
  fetch: async () => new Response(JSON.stringify({ type: 't', code: 'invalid_state', detail: 'live' }), {
    status: 409, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'r1' } }),
});
gc.events.publish('00000000-0000-4000-8000-000000000000').then(
  () => { console.log('unexpected success'); process.exit(1); },
  (e) => { console.log(e instanceof GathercastConflictError, e.code, e.status, e.requestId); },
);
`;
const expected = 'true invalid_state 409 r1';

/** A small strict TypeScript consumer: calls, pagination, metadata, typed errors, webhooks. */
const typedProgram = `import { constructEvent, createClient, GathercastError, type Event } from '@gathercast/sdk';

const gc = createClient({ baseUrl: 'https://api.gathercast.example', apiKey: 'gck_x' });

export async function launch(title: string): Promise<Event> {
  const event = await gc.events.create({ type: 'webinar', title });
  await gc.events.publish(event.id);
  for await (const e of gc.events.list({ limit: 50 })) if (e.title === title) console.log(e.id);
  try {
    await gc.events.start(event.id);
  } catch (err) {
    if (err instanceof GathercastError && err.code === 'invalid_state') console.log(err.detail);
    else throw err;
  }
  const { requestId, rateLimit } = await gc.events.retrieve(event.id).withResponse();
  console.log(requestId, rateLimit.remaining);
  return event;
}

export async function receive(body: string, headers: Headers) {
  const delivery = await constructEvent(body, headers, 'whsec_x');
  if (delivery.type === 'participant.joined') console.log(delivery.participantId);
}

// @ts-expect-error title must be a string
gc.events.create({ type: 'webinar', title: 42 });
// @ts-expect-error not one of the API's error codes
export const typo = (e: GathercastError) => e.code === 'invalid_stat';
`;

/**
 * Packs the SDK as each package manager would publish it, installs the tarball in a blank project
 * and uses it from CommonJS, ESM, strict TypeScript (no skipLibCheck) and a browser bundle.
 */
describe.each(['npm', 'pnpm'] as const)('the SDK packed by %s', (packer) => {
  let project: string;

  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), `gc-sdk-${packer}-`));
    const packs = path.join(project, 'packs');
    mkdirSync(packs);
    built ??= pnpm(['run', 'build'], sdk);
    await built;
    if (packer === 'npm')
      await run('npm', ['pack', '--pack-destination', packs, '--loglevel=error'], { cwd: sdk });
    else await pnpm(['pack', '--pack-destination', packs], sdk);
    const tarball = readdirSync(packs)[0]!;
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        dependencies: { '@gathercast/sdk': `file:./packs/${tarball}` },
      }),
    );
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project });
  }, 300_000);

  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('installs with zod as its only dependency', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(project, 'node_modules/@gathercast/sdk/package.json'), 'utf8'),
    );
    expect(Object.keys(manifest.dependencies)).toEqual(['zod']);
    expect(readdirSync(path.join(project, 'node_modules/@gathercast'))).toEqual(['sdk']);
  });

  it('works from CommonJS', async () => {
    writeFileSync(
      path.join(project, 'main.cjs'),
      program("const { createClient, GathercastConflictError } = require('@gathercast/sdk');"),
    );
    const { stdout } = await run(process.execPath, ['main.cjs'], { cwd: project });
    expect(stdout.trim()).toBe(expected);
  });

  it('works from ESM', async () => {
    writeFileSync(
      path.join(project, 'main.mjs'),
      program("import { createClient, GathercastConflictError } from '@gathercast/sdk';"),
    );
    const { stdout } = await run(process.execPath, ['main.mjs'], { cwd: project });
    expect(stdout.trim()).toBe(expected);
  });

  it.each([
    ['CommonJS', 'identity.cjs', 'const load = (entry) => Promise.resolve(require(entry));'],
    ['ESM', 'identity.mjs', 'const load = (entry) => import(entry);'],
  ])('has one copy of each class and function across its entry points, from %s', async (_, file, loader) => {
    writeFileSync(
      path.join(project, file),
      `${loader}
Promise.all(['@gathercast/sdk', '@gathercast/sdk/live', '@gathercast/sdk/webhooks'].map(load)).then(([main, ...subs]) => {
  const shared = subs.flatMap((sub) => Object.keys(sub).filter((name) => name !== 'default' && name !== '__esModule'));
  const apart = shared.filter((name) => subs.some((sub) => name in sub && sub[name] !== main[name]));
  const closed = new subs[0].LiveConnectionClosed(1000, '');
  console.log(JSON.stringify({ shared: shared.sort(), apart, instanceOf: closed instanceof main.LiveConnectionClosed }));
});
`,
    );
    const { stdout } = await run(process.execPath, [file], { cwd: project });
    const result = JSON.parse(stdout);
    expect(result.shared).toEqual(
      expect.arrayContaining([
        'LiveConnection',
        'LiveConnectionClosed',
        'constructEvent',
        'WebhookVerificationError',
      ]),
    );
    expect(result.apart).toEqual([]);
    expect(result.instanceOf).toBe(true);
  });

  it('works from a browser bundle (esbuild), which leaves out the live connection when it is unused', async () => {
    writeFileSync(
      path.join(project, 'browser.mjs'),
      program("import { createClient, GathercastConflictError } from '@gathercast/sdk';"),
    );
    await build({
      absWorkingDir: project,
      entryPoints: ['browser.mjs'],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      outfile: 'bundle.mjs',
      logLevel: 'silent',
    });
    const bundle = readFileSync(path.join(project, 'bundle.mjs'));
    console.log(
      `${packer}: browser bundle ${bundle.length} B, ${gzipSync(bundle, { level: 9 }).length} B gzipped`,
    );
    expect(bundle.toString()).not.toContain('question.create');
    const { stdout } = await run(process.execPath, ['bundle.mjs'], { cwd: project });
    expect(stdout.trim()).toBe(expected);
  }, 60_000);

  it('type-checks a strict TypeScript consumer without skipLibCheck, and rejects a wrong body and an unknown code', async () => {
    writeFileSync(path.join(project, 'main.ts'), typedProgram);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['main.ts'],
      }),
    );
    const started = Date.now();
    const result = await run(process.execPath, [tsc, '-p', '.'], { cwd: project }).then(
      () => 'clean',
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
    console.log(`${packer}: strict tsc --noEmit of the consumer in ${Date.now() - started} ms`);
    expect(result).toBe('clean');
  }, 240_000);
});
