/**
 * bench/auth: in one run, the throughput of an authenticated GET /v1/workspaces/{id}/members (API
 * key, and account session) against the same route with authentication short-circuited. Loopback
 * only, bounded: 2 s warm-up then 5 s measured per variant and round (5 rounds), 10 connections.
 * The cost is judged on per-round ratios (each variant against the bypass measured in the same
 * round), so load that drifts between rounds weighs on both sides of a ratio alike.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres pnpm --filter @gathercast/bench-auth bench
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { productionNodeFlags } from '../../events/src/node-flags';

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const budget = 0.15;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function startServer(databaseUrl: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('./serve.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', ...productionNodeFlags(), script, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, child };
}

/** The fields this bench reads from the answers it gets (signup, API key creation). */
interface Answer {
  workspaces: { id: string }[];
  sessionToken: string;
  secret: string;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Answer>;
}

async function measure(url: string, headers: Record<string, string>): Promise<number> {
  const check = await fetch(url, { headers });
  if (check.status !== 200) throw new Error(`${url} answered ${check.status}: ${await check.text()}`);
  await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx || result.errors) throw new Error(`non-2xx answers: ${result.non2xx}, errors: ${result.errors}`);
  return result.requests.average;
}

const database = `gc_bench_auth_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${database}`);
const databaseUrl = withDatabase(adminUrl, database);
const servers: ChildProcess[] = [];
try {
  // Seeding runs in a process of its own: a measured process that had also served signups would carry
  // that history (heap, polymorphic call sites) into the measurement; two identical servers, one of
  // which seeded, differ by about 10 % here.
  const seeder = await startServer(databaseUrl, ['auth']);
  const account = await post(`${seeder.url}/v1/accounts/signup`, { email: 'bench@example.test', password: 'bench-password', name: 'Bench' });
  const workspaceId = account.workspaces[0]!.id;
  const session = account.sessionToken;
  for (let i = 0; i < 4; i++) {
    await post(`${seeder.url}/v1/accounts/signup`, { email: `bench-${i}@example.test`, password: 'bench-password', name: `B${i}` });
  }
  const key = await post(`${seeder.url}/v1/workspaces/${workspaceId}/api-keys`, { name: 'bench' }, { authorization: `Bearer ${session}` });
  seeder.child.kill('SIGTERM');
  await new Promise((r) => seeder.child.once('exit', r));

  const real = await startServer(databaseUrl, ['auth']);
  servers.push(real.child);
  const bypass = await startServer(databaseUrl, ['bypass', workspaceId]);
  servers.push(bypass.child);

  const path = `/v1/workspaces/${workspaceId}/members`;
  const samples: Record<string, number[]> = { bypass: [], apiKey: [], session: [] };
  // Interleaved rounds, median of each variant, so drift on a shared machine affects every variant alike.
  for (let round = 0; round < rounds; round++) {
    const entries: [string, string, Record<string, string>][] = [
      ['bypass', bypass.url, {}],
      ['apiKey', real.url, { 'x-api-key': key.secret }],
      ['session', real.url, { authorization: `Bearer ${session}` }],
    ];
    // Rotated each round, so no variant always runs first or last.
    const rotated = [...entries.slice(round % entries.length), ...entries.slice(0, round % entries.length)];
    for (const [name, base, headers] of rotated) {
      samples[name]!.push(await measure(`${base}${path}`, headers));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const results = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  const cost = (name: string) => 1 - median(samples[name]!.map((rate, round) => rate / samples.bypass![round]!));
  console.log(`GET ${path}, ${connections} connections, ${seconds} s measured after 2 s warm-up, ${rounds} interleaved rounds`);
  console.log(`  samples (req/s): ${JSON.stringify(Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map(Math.round)])))}`);
  console.log('  cost = 1 - median over rounds of (variant / bypass in the same round)');
  console.log(`  authentication bypassed : ${results.bypass!.toFixed(0)} req/s (median)`);
  console.log(`  x-api-key               : ${results.apiKey!.toFixed(0)} req/s  (authentication costs ${(cost('apiKey') * 100).toFixed(1)} %)`);
  console.log(`  Bearer account session  : ${results.session!.toFixed(0)} req/s  (authentication costs ${(cost('session') * 100).toFixed(1)} %)`);
  const worst = Math.max(cost('apiKey'), cost('session'));
  console.log(worst < budget ? `OK: under the ${budget * 100} % budget` : `OVER the ${budget * 100} % budget`);
  process.exitCode = worst < budget ? 0 : 1;
} finally {
  for (const child of servers) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}
