import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from './support/commands';
import { useServerWithWorkspace } from './support/hooks';
import { codeBlocks, repoRoot } from './support/markdown-blocks';
import type { TestServer } from './support/server';

// docs/embed.md, run as a reader would: its curl steps in one shell with an API key, and its SDK
// program, which must be examples/embed.ts as committed. Only the server's address changes.

const guide = codeBlocks('docs/embed.md');
let t: TestServer;
let dir: string;
let apiKey: string;

useServerWithWorkspace((started) => {
  t = started.t;
  apiKey = started.ws.apiKey;
});
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gc-embed-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a command to its end with the reader's PATH (this Node first); stdout and stderr together. */
async function run(command: string, args: string[], cwd: string, env: Record<string, string>) {
  const r = await runCommand(command, args, {
    cwd,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, ...env },
    timeoutMs: 80_000,
  });
  return { status: r.status, output: r.stdout + r.stderr };
}

const withServer = (code: string) => code.replaceAll('http://localhost:3000', t.url);

describe('the embedding guide', () => {
  it('curl steps: a host token, three speaker join links, the room listed, a removal, a ban refusing tokens, chat locked', async () => {
    const steps = guide.filter((b) => b.section.startsWith('2.') && b.lang === 'sh');
    expect(steps.length).toBeGreaterThanOrEqual(6);
    const script = ['set -euo pipefail', ...steps.map((b) => withServer(b.code))].join('\n');
    const shell = await run('bash', ['-c', script], dir, { GC_API_KEY: apiKey });
    expect(shell.status, shell.output).toBe(0);
    const out = shell.output;
    expect(out).toMatch(/^host user:[0-9a-f-]{36} -> ws:\/\//m);
    expect(out).toMatch(/^speaker user:[0-9a-f-]{36}$/m);
    expect(out).toMatch(/"joinLinks":\[\{"id":"[0-9a-f-]{36}"/);
    expect(out).toContain('{"participants":[],"nextCursor":null}');
    expect(out).toContain('204\n204\n');
    expect(out).toContain('"code":"forbidden"');
    expect(out).toContain('{"chatMode":"audience_locked","slowModeSeconds":10,"setForEvent":true}');
  }, 90_000);

  it('the SDK program is examples/embed.ts, and removes the viewer after putting a host and three speakers on stage', async () => {
    const program = guide.find((b) => b.section.startsWith('3.') && b.lang === 'ts')!.code;
    expect(program).toBe(readFileSync(path.join(repoRoot, 'examples/embed.ts'), 'utf8'));
    const work = mkdtempSync(path.join(dir, 'sdk-'));
    symlinkSync(path.join(repoRoot, 'examples/node_modules'), path.join(work, 'node_modules'));
    writeFileSync(path.join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(path.join(work, 'embed.ts'), program);
    const sdk = await run(process.execPath, ['--import', 'tsx', 'embed.ts'], work, {
      GATHERCAST_URL: t.url,
      GATHERCAST_API_KEY: apiKey,
    });
    expect(sdk.status, sdk.output).toBe(0);
    const expected = guide.find((b) => b.section.startsWith('3.') && b.lang === 'text')!.code;
    // The room's order is participantId order: the same people, in whatever order their ids fall.
    const lines = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => (l.startsWith('in the room: ') ? l.split(', ').sort().join(', ') : l));
    expect(lines(sdk.output)).toEqual(lines(expected));
  }, 90_000);
});
