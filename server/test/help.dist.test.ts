import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from './support/commands';
import { createTestDatabase } from './support/database';
import { faqEntry, replyTo } from './support/help';
import { freePort } from './support/ports';
import { waitForReady } from './support/process';

const require = createRequire(import.meta.url);
const serverDir = path.resolve(__dirname, '..');
// Inside server/dist (ignored, cleaned by every build) so the bundle resolves its dependencies from
// server/node_modules, at a depth where reading docs/faq.md relative to the bundle would miss: the
// server only starts if the FAQ is built into the bundle.
const testDir = path.join(serverDir, 'dist', `help-test-${randomBytes(4).toString('hex')}`);
const outDir = path.join(testDir, 'bundle');

let child: ChildProcess | undefined;
let url = '';
let output = '';

beforeAll(async () => {
  const built = await runCommand(process.execPath, [require.resolve('tsup/dist/cli-default.js'), '--out-dir', outDir], {
    cwd: serverDir,
  });
  if (built.status !== 0) throw new Error(`tsup failed:\n${built.stdout}\n${built.stderr}`);
  const port = await freePort();
  child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: await createTestDatabase(),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DELAY_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  url = `http://127.0.0.1:${port}`;
  await waitForReady(url).catch((err) => {
    throw new Error(`${err.message}\n${output}`);
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(testDir, { recursive: true, force: true });
});

describe('the built server (tsup bundle)', () => {
  it('answers help chat from the FAQ built into the bundle', async () => {
    expect(await replyTo(url, 'How do I go live?')).toBe(faqEntry('How do I go live?').answer);
    expect(
      await replyTo(url, 'Where can I watch the recording?', { audience: 'viewer', stage: 'ended' }),
    ).toBe(faqEntry('Where can I watch the recording?').answer);
  });
});
