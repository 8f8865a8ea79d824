import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * scripts/sdk-codemod.mjs converts calls written in the old, ts-rest-shaped form (`{ params, query,
 * body, headers }`) to the SDK's call shape, reading names and path ids from the contract.
 */
const repo = path.resolve(__dirname, '../..');
const codemod = path.join(repo, 'scripts/sdk-codemod.mjs');
const run = promisify(execFile);

/**
 * Runs the codemod on the contract's source (through tsx, no build needed) and resolves with its exit
 * code and output (a non-zero exit is an answer here).
 */
const codemodRun = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', codemod, ...args], {
    cwd: repo,
    env: { ...process.env, SDK_CODEMOD_CONTRACT: 'contract/src/index.ts' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );

const oldShape = `const a = await gc.events.get({ params: { id } });
const b = await gc.events.update({ params: { id }, body: { title } });
const c = await gc.events.list({ query: { limit: 5 } }, { timeout: 1000 });
const d = await gc.raw.invites.revoke({ params: { id, inviteId }, headers });
const e = await gc.events.update({ params: ev, body: { title } }, { headers: h });
`;
const sdkShape = `const a = await gc.events.retrieve(id);
const b = await gc.events.update(id, { title });
const c = await gc.events.list({ limit: 5 }, { timeout: 1000 });
const d = await gc.raw.invites.delete(id, inviteId, { headers: headers });
const e = await gc.events.update(ev.id, { title }, { headers: h });
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gc-codemod-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of the test's directory holding `text`; its path. */
const fileWith = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('the SDK codemod', () => {
  it('rewrites old-shape calls to positional ids, the input and the options, with the SDK’s names', async () => {
    const file = fileWith('calls.js', oldShape);
    const { code } = await codemodRun([file]);
    expect(code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(sdkShape);
  });

  it('leaves calls already in the SDK’s shape as they are', async () => {
    const file = fileWith('current.js', sdkShape);
    const { code, stdout } = await codemodRun(['--check', file]);
    expect(code).toBe(0);
    expect(stdout).toContain('would convert 0 file(s)');
  });

  it('with --check changes nothing and exits 1 when something would change', async () => {
    const file = fileWith('check.js', oldShape);
    const { code, stdout } = await codemodRun(['--check', file]);
    expect(code).toBe(1);
    expect(stdout).toContain('would convert 1 file(s)');
    expect(readFileSync(file, 'utf8')).toBe(oldShape);
  });

  it('converts the code blocks of Markdown and leaves its prose alone', async () => {
    const file = fileWith(
      'guide.md',
      `Call gc.events.get({ params: { id } }) like this:\n\n\`\`\`ts\n${oldShape}\`\`\`\n`,
    );
    await codemodRun([file]);
    expect(readFileSync(file, 'utf8')).toBe(
      `Call gc.events.get({ params: { id } }) like this:\n\n\`\`\`ts\n${sdkShape}\`\`\`\n`,
    );
  });

  it('lists a call it cannot convert safely with its file and line, and leaves it', async () => {
    const text = 'const x = 1;\nawait gc.events.get({ params: { ...ids } });\n';
    const file = fileWith('spread.js', text);
    const { stderr } = await codemodRun([file]);
    expect(stderr).toContain(`${path.relative(repo, file)}:2: a spread in params`);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
