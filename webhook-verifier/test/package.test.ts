/**
 * The published artifact: `npm pack`, installed from the tarball into a blank project,
 * then loaded the ways consumers load it (require, import, a TypeScript compile, bundlers).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const NAME = '@gathercast/webhook-verifier';
let project: string;
let packedFiles: string[];

const node = (file: string) =>
  execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8' }).trim();
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'gc-verifier-consumer-'));
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', project], root)) as [
    { filename: string; files: { path: string }[] },
  ];
  packedFiles = packed.files.map((f) => f.path);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  npm(
    ['install', `./${packed.filename}`, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'],
    project,
  );
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

const check = (load: string) => `
  const v = gc.vectors.valid[0];
  const event = gc.node.verifySync(v.body, v.headers, v.verifierSecrets, { now: () => v.now * 1000 });
  Promise.all([
    gc.web.verify(v.body, v.headers, v.verifierSecrets, { now: () => v.now * 1000 }),
    gc.node.verify(v.body, v.headers, 'whsec_wrong', { now: () => v.now * 1000 }).catch((e) => e.code),
  ]).then(([fromWeb, code]) => console.log(JSON.stringify({
    load: '${load}', type: event.type, web: fromWeb.id === event.id, code,
    sync: typeof gc.node.verifySync, webSync: typeof gc.web.verifySync, express: typeof gc.express.webhookMiddleware,
  })));`;

describe('the packed tarball', () => {
  it('ships dist, the test vectors and the README, not sources or tests', () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        'dist/node.cjs',
        'dist/web.js',
        'dist/express.d.ts',
        'test-vectors.json',
        'README.md',
      ]),
    );
    expect(packedFiles.filter((f) => /^(src|test|scripts)\//.test(f))).toEqual([]);
  });

  it('declares no runtime dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', NAME, 'package.json'), 'utf8'));
    expect([manifest.dependencies, manifest.peerDependencies]).toEqual([undefined, undefined]);
  });

  it('has type declarations that import neither zod nor @gathercast/contract', () => {
    const dist = join(project, 'node_modules', NAME, 'dist');
    for (const file of readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f))) {
      expect(readFileSync(join(dist, file), 'utf8'), file).not.toMatch(
        /zod|@gathercast\/contract|contract\/src/,
      );
    }
  });

  it('works with require() in a blank CommonJS project', () => {
    writeFileSync(
      join(project, 'check.cjs'),
      `const gc = { node: require('${NAME}'), web: require('${NAME}/web'), express: require('${NAME}/express'),
        vectors: require('${NAME}/test-vectors.json') };${check('require')}`,
    );
    expect(JSON.parse(node('check.cjs'))).toEqual({
      load: 'require',
      type: 'event.published',
      web: true,
      code: 'signature_mismatch',
      sync: 'function',
      webSync: 'undefined',
      express: 'function',
    });
  });

  it('works with import in a blank ES module project', () => {
    writeFileSync(
      join(project, 'check.mjs'),
      `import * as nodeEntry from '${NAME}'; import * as web from '${NAME}/web'; import * as express from '${NAME}/express';
       import { createRequire } from 'node:module';
       const gc = { node: nodeEntry, web, express, vectors: createRequire(import.meta.url)('${NAME}/test-vectors.json') };${check('import')}`,
    );
    expect(JSON.parse(node('check.mjs'))).toMatchObject({
      load: 'import',
      sync: 'function',
      webSync: 'undefined',
      web: true,
    });
  });

  it('type-checks a strict TypeScript consumer without DOM or Node types', () => {
    writeFileSync(
      join(project, 'consumer.ts'),
      `import { verify, type WebhookEvent, type WebhookEventOf, WebhookVerificationError } from '${NAME}/web';
       export async function handle(body: Uint8Array, headers: Record<string, string>): Promise<string> {
         try {
           const event: WebhookEvent = await verify(body, headers, ['whsec_new', 'whsec_old'], { toleranceSeconds: 60 });
           if (event.type === 'participant.joined') {
             const joined: WebhookEventOf<'participant.joined'> = event;
             return joined.role + String(joined.anonymous);
           }
           return event.type === 'question.created' ? event.text : event.occurredAt;
         } catch (error) {
           if (error instanceof WebhookVerificationError) return error.code;
           throw error;
         }
       }`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022'],
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      {
        cwd: project,
        encoding: 'utf8',
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it.each([
    ['browser', { platform: 'browser' as const }, 'web.js'],
    [
      'Cloudflare Workers',
      { platform: 'neutral' as const, conditions: ['workerd', 'worker', 'import'] },
      'web.js',
    ],
    ['Node', { platform: 'node' as const, format: 'esm' as const }, 'node.js'],
  ])('resolves the %s build through package exports', (_, options, file) => {
    const result = buildSync({
      stdin: { contents: `export * from '${NAME}';`, resolveDir: project },
      bundle: true,
      write: false,
      metafile: true,
      external: ['node:crypto'],
      ...options,
    });
    const inputs = Object.keys(result.metafile.inputs).filter((p) => p.includes(NAME));
    expect(inputs.some((p) => p.endsWith(`dist/${file}`))).toBe(true);
  });
});
