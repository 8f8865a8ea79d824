import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from './support/hooks';
import { codeBlocks, repoRoot } from './support/markdown-blocks';
import { freePort } from './support/ports';
import type { TestServer } from './support/server';
import { eventually } from './support/wait';

// docs/quickstart.md, run as a reader would: its curl steps in one shell, its receiver and its SDK
// program as written. Only the addresses change (the test server's URL, free ports for the receivers),
// so a command, field name or program in the guide that stops working fails here.

const guide = codeBlocks('docs/quickstart.md');
let t: TestServer;
let dir: string;
const children: ChildProcess[] = [];

useTestServer({}, (started) => {
  t = started;
});
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gc-quickstart-'));
});
afterAll(() => {
  // The whole process group, even when its leader has exited: the shell's background receiver outlives it.
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a command in its own process group (so background jobs can be stopped with it), collecting output. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { output: () => output, exited };
}

const withServer = (code: string) => code.replaceAll('http://localhost:3000', t.url);

describe('the quick start', () => {
  it('curl steps sign up, create a key, and the receiver verifies a test delivery and a real event.published', async () => {
    const port = await freePort();
    const receiver = guide.find((b) => b.code.startsWith('// receiver.mjs'));
    expect(receiver, 'the receiver program').toBeDefined();
    writeFileSync(path.join(dir, 'receiver.mjs'), receiver!.code.replace('.listen(4000', `.listen(${port}`));

    const steps = guide.filter((b) => b.section.startsWith('2.') && b.lang === 'sh');
    expect(steps.length).toBeGreaterThanOrEqual(6);
    // A reader runs the next command after the receiver says it is listening; the script waits for its
    // port the same way (a test send is not retried, so one sent before the receiver listens is lost).
    const receiverListening = `until (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; do sleep 0.1; done`;
    const script = [
      'set -euo pipefail',
      ...steps.flatMap((b) => {
        const code = withServer(b.code).replaceAll('localhost:4000', `localhost:${port}`);
        return code.includes('node receiver.mjs &') ? [code, receiverListening] : [code];
      }),
    ].join('\n');
    const shell = run('bash', ['-c', script], dir);
    expect(await shell.exited, shell.output()).toBe(0);

    expect(shell.output()).toContain('"events":[]');
    expect(JSON.parse(readFileSync(path.join(dir, 'key.json'), 'utf8')).secret).toMatch(/^gck_/);
    expect(JSON.parse(readFileSync(path.join(dir, 'endpoint.json'), 'utf8')).secret).toMatch(/^whsec_/);
    const eventId = JSON.parse(readFileSync(path.join(dir, 'event.json'), 'utf8')).id as string;
    const verified = (id: string) => new RegExp(`verified event\\.published [0-9a-f-]{36} \\(event ${id}\\)`);
    const output = await eventually(
      async () => shell.output(),
      (out) => verified('00000000-0000-0000-0000-000000000000').test(out) && verified(eventId).test(out),
      30_000,
    );
    expect(output).toMatch(verified('00000000-0000-0000-0000-000000000000'));
    expect(output).toMatch(verified(eventId));
    expect(shell.output()).not.toContain('refused');
  }, 90_000);

  it('the SDK program receives and verifies event.published', async () => {
    const port = await freePort();
    const program = guide.find((b) => b.section.startsWith('3.') && b.lang === 'ts');
    expect(program?.code).toContain("from '@gathercast/sdk'");
    const work = mkdtempSync(path.join(dir, 'sdk-'));
    // The guide runs it inside examples/: an ES module package whose node_modules has the SDK, the verifier and tsx.
    symlinkSync(path.join(repoRoot, 'examples/node_modules'), path.join(work, 'node_modules'));
    writeFileSync(
      path.join(work, 'package.json'),
      JSON.stringify({
        type: JSON.parse(readFileSync(path.join(repoRoot, 'examples/package.json'), 'utf8')).type,
      }),
    );
    writeFileSync(
      path.join(work, 'first-webhook.ts'),
      program!.code
        .replaceAll('localhost:4001', `localhost:${port}`)
        .replace('.listen(4001', `.listen(${port}`),
    );
    // The guide's command builds the packages first (this run's setup has built them already), then runs the program.
    const command = guide.find((b) => b.section.startsWith('3.') && b.lang === 'sh')!.code.trim();
    expect(command).toBe('npx -y pnpm@10.34.8 build && cd examples && node --import tsx first-webhook.ts');
    // Outside the repository: the guide's tarballs are the ones `npm pack` makes of the packages as they
    // are now (name and version); sdk's package test installs such a tarball in a blank project.
    const install = guide.find((b) => b.section.startsWith('3.') && b.code.includes('npm pack'))?.code;
    expect(install).toContain('(cd sdk && npm pack) && (cd webhook-verifier && npm pack)');
    for (const pkg of ['sdk', 'webhook-verifier']) {
      const { name, version } = JSON.parse(readFileSync(path.join(repoRoot, pkg, 'package.json'), 'utf8'));
      const tarball = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
      expect(install, tarball).toContain(`/path/to/gathercast/${pkg}/${tarball}`);
    }
    const sdk = run(process.execPath, ['--import', 'tsx', 'first-webhook.ts'], work, {
      GATHERCAST_URL: t.url,
    });
    expect(await sdk.exited, sdk.output()).toBe(0);
    expect(sdk.output()).toMatch(/verified event\.published [0-9a-f-]{36} \(event [0-9a-f-]{36}\)/);
  }, 90_000);
});
