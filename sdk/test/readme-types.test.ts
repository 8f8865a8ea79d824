import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const sdk = path.resolve(__dirname, '..');
const dir = path.join(sdk, '.tmp/readme-samples');

/** The names README samples use without declaring them (what the reader's program already has), and their types. */
const given: Record<string, string> = {
  gc: 'SDK.GathercastClient',
  live: 'SDK.LiveConnection',
  event: 'SDK.Event',
  LiveConnection: 'typeof SDK.LiveConnection',
  createClient: 'typeof SDK.createClient',
  WebSocket: "typeof import('ws').WebSocket",
  baseUrl: 'string',
  sessionToken: 'string',
  apiKey: 'string',
  id: 'string',
  eventId: 'string',
  workspaceId: 'string',
  membershipId: 'string',
  secret: 'string',
  rawBody: 'string',
  t: 'string',
  order: '{ id: string }',
  controller: 'AbortController',
  request: '{ headers: Headers }',
  headers: 'Headers',
  showBanner: '(text: string) => void',
  hideBanner: '() => void',
  reloadChatHistory: '() => void',
};

/** A sample as a module: the names it uses but neither declares nor imports are declared first. */
function asModule(sample: string): string {
  const declared = (name: string) =>
    new RegExp(`\\b(const|let|var|function|class)\\s+${name}\\b`).test(sample) ||
    new RegExp(`\\b(const|let|var)\\s*[{[][^=]*\\b${name}\\b[^=]*=`).test(sample) ||
    new RegExp(`^import[^;]*\\b${name}\\b[^;]*from`, 'm').test(sample);
  const declarations = Object.entries(given)
    .filter(([name]) => new RegExp(`\\b${name}\\b`).test(sample) && !declared(name))
    .map(([name, type]) => `declare const ${name}: ${type};`);
  return `import type * as SDK from '@gathercast/sdk';\n${declarations.join('\n')}\n${sample}\nexport {};\n`;
}

/**
 * Every TypeScript sample of README.md compiles, strictly, against the SDK's sources, with the repo's
 * `ws` and `@types/ws` for the live samples (`LiveConnection.open(url, { WebSocket })` as written).
 */
it('compiles every ts sample of README.md', async () => {
  const readme = readFileSync(path.join(sdk, 'README.md'), 'utf8');
  const samples = [...readme.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
  expect(samples.length).toBeGreaterThan(5);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  samples.forEach((sample, i) => {
    writeFileSync(path.join(dir, `sample-${i + 1}.ts`), asModule(sample));
  });
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        typeRoots: [path.join(sdk, 'node_modules/@types')],
        skipLibCheck: true,
        paths: { '@gathercast/sdk': [path.join(sdk, 'src/index.ts')] },
      },
      include: ['*.ts'],
    }),
  );
  const tsc = path.join(sdk, 'node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
    () => '',
    (err: { stdout?: string }) => err.stdout ?? String(err),
  );
  expect(result).toBe('');
}, 480_000);
