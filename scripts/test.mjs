#!/usr/bin/env node
// Runs every test of every package, in dependency order, stopping at the first failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const steps = [
  ['lint', ['exec', 'biome', 'lint', '.']],
  ['contract', ['--filter', '@gathercast/contract', 'run', 'typecheck']],
  ['webhook-verifier', ['--filter', '@gathercast/webhook-verifier', '--if-present', 'run', 'test']],
  ['sdk typecheck', ['--filter', '@gathercast/sdk', 'run', 'typecheck']],
  ['sdk', ['--filter', '@gathercast/sdk', 'run', 'test']],
  ['server typecheck', ['--filter', '@gathercast/server', 'run', 'typecheck']],
  ['server', ['--filter', '@gathercast/server', 'run', 'test']],
  ['examples', ['--filter', '@gathercast/examples', '--if-present', 'run', 'test']],
  // The image runs Node 24 (LTS): the server's runtime-sensitive paths run on it too, through the root
  // `test:node24` script (Node from the npm registry's `node` package), which alone runs the whole
  // suite on it; both whole suites do not fit this command's 20-minute budget on a 2-core machine.
  ['server on Node 24', ['run', 'test:node24', ...node24Tests()]],
];

/** The files whose subject is something that changes between Node majors. */
function node24Tests() {
  return [
    // the process: signals and drain, the listen backlog, configuration, the embedded PostgreSQL
    'foundation.signals',
    'foundation.listen-backlog',
    'foundation.config',
    'foundation.embedded',
    // node:http and its parser: edge cases, keep-alive and timeouts, JSON and problem answers
    'http.edges',
    'http.connection-limits',
    'http.json-responses',
    'foundation.problems',
    // the ORM and pg driver, native argon2 and node:crypto
    'events.crud',
    'identity.auth',
    'identity.secrets',
    'gateway.tokens',
    'webhooks.signer',
    // ws: the live gateway, its keep-alive and resume
    'live.end-to-end',
    'live.keep-alive',
    'live.resume',
    // fetch (undici) in the SDK and the worker, DNS and address checks, graphile-worker
    'sdk.resilience',
    'webhooks.delivery',
    'webhooks.ssrf',
    'webhooks.worker-stop',
    // OpenTelemetry's instrumentation hooks into node:http and pg
    'ops.tracing',
  ].map((name) => `test/${name}.test.ts`);
}

/** The failed tests of a step's vitest JSON report (file, test name, first line of the error). */
function failedTests(reportFile) {
  if (!existsSync(reportFile)) return [];
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  return report.testResults.flatMap((file) => {
    const where = path.relative(process.cwd(), file.name);
    const tests = file.assertionResults.filter((t) => t.status === 'failed');
    if (tests.length === 0 && file.status === 'failed') return [`${where}: ${firstLine(file.message)}`];
    return tests.map((t) => `${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
  });
}
const firstLine = (text) =>
  (text ?? '')
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 300) ?? '';

const reports = mkdtempSync(path.join(tmpdir(), 'gc-test-reports-'));
const pnpm = process.env.npm_execpath;
let failed = 0;
const summary = [];
for (const [name, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const reportFile = path.join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const env = { ...process.env, GC_TEST_REPORT: reportFile };
  const r = pnpm
    ? spawnSync(process.execPath, [pnpm, ...args], { stdio: 'inherit', env })
    : spawnSync('pnpm', args, { stdio: 'inherit', shell: true, env });
  const ok = r.status === 0;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (!ok) for (const failure of failedTests(reportFile)) summary.push(`       ${failure}`);
  if (!ok) failed++;
}
rmSync(reports, { recursive: true, force: true });
console.log(`\n${summary.join('\n')}`);
process.exit(failed ? 1 : 0);
