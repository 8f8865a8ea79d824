// bench/live: the live gateway at audience scale against a bare ws baseline, a failover, or Q&A at scale.
//   pnpm --filter @gathercast/bench-live bench -- [--viewers 10000] [--concurrency 64]
//        [--history on|off|compare] [--scenario audience|failover|qa|storm] [--no-baseline] [--minutes 40]
// It starts and stops everything itself (database, servers, helpers) and exits 1 when a target is missed.
import { type RunFigures, baselineRun, serverRun } from './audience';
import { failover } from './failover';
import {
  type CpuUse,
  freshDatabase,
  load,
  openFilesLimit,
  startHelper,
  startPostgres,
  stopAll,
} from './infra';
import { qa } from './qa';
import { ms, seconds } from './stats';
import { storm } from './storm';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  if (at >= 0 && process.argv[at + 1]) return process.argv[at + 1]!;
  return process.env[`BENCH_${name.toUpperCase()}`] ?? fallback;
}

const scenario = option('scenario', 'audience');
const history = option('history', 'on');
const defaultViewers: Record<string, string> = { audience: '10000', failover: '2000', qa: '1000' };
const viewers = Number(option('viewers', defaultViewers[scenario] ?? '10000'));
const concurrency = Number(option('concurrency', '64'));
const withBaseline = !process.argv.includes('--no-baseline');
/** Failover with half the viewers on each process (one audience on two processes). */
const split = process.argv.includes('--split') || process.env.BENCH_SPLIT === '1';
/** The whole run's budget: past it the bench stops everything and exits 1 (a starved machine cannot hang it). */
const budgetMinutes = Number(option('minutes', '40'));
if (!['audience', 'failover', 'qa', 'storm'].includes(scenario))
  throw new Error('--scenario must be audience, failover, qa or storm');
if (!['on', 'off', 'compare'].includes(history)) throw new Error('--history must be on, off or compare');
if (!(viewers > 0) || !(concurrency > 0))
  throw new Error('--viewers and --concurrency must be positive numbers');

const target = {
  joinsPerSecond: 500,
  joinRatio: 0.5,
  fanOutP99Ms: 250,
  fanOutRatio: 2,
  kbPerSocket: 16,
  webhooksWithinMs: 30_000,
};

/** Whether this process (and the servers, which inherit its limits) may open the sockets needed. */
function checkOpenFiles(): void {
  const limit = openFilesLimit();
  const needed = viewers + 1000;
  if (limit < needed) {
    throw new Error(
      `the open files limit is ${limit}; ${viewers} viewers need about ${needed}: run \`ulimit -n 65536\` first (bench.sh does)`,
    );
  }
}

const worstP99 = (r: RunFigures) => Math.max(...r.fanOut.map((f) => f.p99));

function printRun(r: RunFigures): void {
  console.log(`\n== ${r.name} (load average ${r.load.join(' ')})`);
  if (r.tokensPerSecond !== undefined)
    console.log(
      `gateway tokens      ${r.tokensPerSecond.toFixed(0)}/s${r.tokensRefreshed ? ` (${r.tokensRefreshed} refreshed before joining)` : ''}`,
    );
  console.log(
    `joins               ${r.join.joined} connected, ${r.join.failed} failed, ${r.joinsPerSecond.toFixed(0)}/s (${seconds(r.join.wallMs)} in all)`,
  );
  for (const f of r.join.failures) console.log(`  failure: ${f}`);
  console.log(`join p50 / p99      ${ms(r.join.p50)} / ${ms(r.join.p99)}`);
  const cpu = (c: CpuUse, n: number) =>
    `${c.server.toFixed(0)} % server, ${c.loader.toFixed(0)} % load generator, ${c.database.toFixed(0)} % PostgreSQL; ` +
    `${((1000 * c.serverSeconds) / n).toFixed(2)} server CPU ms each (PostgreSQL ${((1000 * c.databaseSeconds) / n).toFixed(2)})`;
  if (r.cpu.tokens) console.log(`CPU, tokens         ${cpu(r.cpu.tokens, viewers)}`);
  console.log(`CPU, joins          ${cpu(r.cpu.joins, Math.max(1, r.join.joined))}`);
  console.log(
    `RSS (after full GC) ${(r.rssBeforeKb / 1024).toFixed(0)} MB before, ${(r.rssAfterKb / 1024).toFixed(0)} MB with the sockets: ${r.kbPerSocket.toFixed(1)} KB per socket (heap + external: ${r.heapKbPerSocket.toFixed(1)} KB)`,
  );
  if (r.webhooks) {
    const w = r.webhooks;
    console.log(
      `participant.joined  ${w.requests} received, ${w.distinctIds} distinct ids, ${w.viewers} distinct viewers; ` +
        (w.allWithinMs === null
          ? 'NOT all within 30 s of the last join'
          : `all within ${seconds(w.allWithinMs)} of the last join`),
    );
  }
  console.log('fan-out             first      p50        p99        max     missing');
  for (const f of r.fanOut) {
    console.log(
      `  ${f.label.padEnd(17)} ${ms(f.first).padStart(8)}   ${ms(f.p50).padStart(8)}   ${ms(f.p99).padStart(8)}   ${ms(f.max).padStart(8)}   ${f.missing}`,
    );
  }
}

/** The targets, each as a line with its ratio; false when one is missed. */
function judge(server: RunFigures, baseline: RunFigures | undefined): boolean {
  let ok = true;
  const check = (what: string, pass: boolean) => {
    ok &&= pass;
    console.log(`${pass ? 'PASS' : 'FAIL'}  ${what}`);
  };
  console.log(`\n-- targets for ${server.name}`);
  check(
    `${server.join.joined} of ${viewers} connected, ${server.join.failed} failed (target: all, 0 failed)`,
    server.join.joined === viewers && server.join.failed === 0,
  );
  check(
    `join rate ${server.joinsPerSecond.toFixed(0)}/s (target >= ${target.joinsPerSecond}/s)`,
    server.joinsPerSecond >= target.joinsPerSecond,
  );
  const p99 = worstP99(server);
  check(
    `fan-out p99 ${ms(p99)} (worst message; target <= ${target.fanOutP99Ms} ms)`,
    p99 <= target.fanOutP99Ms,
  );
  if (baseline) {
    const joinRatio = server.joinsPerSecond / baseline.joinsPerSecond;
    check(
      `join rate ${(joinRatio * 100).toFixed(0)} % of the baseline's (${server.joinsPerSecond.toFixed(0)} vs ${baseline.joinsPerSecond.toFixed(0)}/s; target >= ${target.joinRatio * 100} %)`,
      joinRatio >= target.joinRatio,
    );
    // Not a target: what a join costs the process in CPU, which the machine's load does not change much.
    const perJoin = (r: RunFigures, seconds: number) => (1000 * seconds) / Math.max(1, r.join.joined);
    const own = perJoin(server, server.cpu.joins.serverSeconds);
    const withDatabase = perJoin(server, server.cpu.joins.serverSeconds + server.cpu.joins.databaseSeconds);
    const bare = perJoin(baseline, baseline.cpu.joins.serverSeconds);
    console.log(
      `info  server CPU per join ${own.toFixed(2)} ms, ${withDatabase.toFixed(2)} ms with PostgreSQL's, vs the baseline's ${bare.toFixed(2)} ms (${(own / Math.max(bare, 0.001)).toFixed(1)}x, ${(withDatabase / Math.max(bare, 0.001)).toFixed(1)}x)`,
    );
    const fanOutRatio = p99 / Math.max(worstP99(baseline), 1);
    check(
      `fan-out p99 ${fanOutRatio.toFixed(2)}x the baseline's (${ms(p99)} vs ${ms(worstP99(baseline))}; target <= ${target.fanOutRatio}x)`,
      fanOutRatio <= target.fanOutRatio,
    );
  }
  check(
    `${server.kbPerSocket.toFixed(1)} KB server RSS per socket (target <= ${target.kbPerSocket} KB)`,
    server.kbPerSocket <= target.kbPerSocket,
  );
  const w = server.webhooks;
  if (w) {
    check(
      `participant.joined: ${w.viewers} viewers, ${w.distinctIds} distinct ids within 30 s of the last join (target: ${server.join.joined} and ${server.join.joined})`,
      w.allWithinMs !== null && w.distinctIds >= server.join.joined,
    );
  }
  return ok;
}

async function audience(adminUrl: string): Promise<boolean> {
  const receiver = await startHelper<string>('receiver-proc.ts', {});
  const modes = history === 'compare' ? ['on', 'off'] : [history];
  const runs: RunFigures[] = [];
  let forBaseline: Awaited<ReturnType<typeof serverRun>>['forBaseline'] | undefined;
  for (const mode of modes) {
    const run = await serverRun(
      `server, history ${mode}`,
      await freshDatabase(adminUrl),
      mode === 'off' ? { LIVE_HISTORY_MAX: '0' } : {},
      { child: receiver.child, url: receiver.ready },
      { viewers, concurrency },
    );
    runs.push(run.figures);
    forBaseline ??= run.forBaseline;
  }
  const baseline =
    withBaseline && forBaseline ? await baselineRun(forBaseline, { viewers, concurrency }) : undefined;
  for (const r of [...runs, ...(baseline ? [baseline] : [])]) printRun(r);
  if (runs.length === 2) {
    const [on, off] = runs as [RunFigures, RunFigures];
    console.log(
      `\nhistory store cost: fan-out p99 ${ms(worstP99(on))} with it, ${ms(worstP99(off))} without (worst message); ` +
        `median p99 ${ms(median(on.fanOut.map((f) => f.p99)))} vs ${ms(median(off.fanOut.map((f) => f.p99)))}`,
    );
  }
  let ok = true;
  for (const r of runs) ok = judge(r, baseline) && ok;
  return ok;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  checkOpenFiles();
  setTimeout(() => {
    console.error(`\nthe run took longer than ${budgetMinutes} minutes (--minutes): stopping everything`);
    void stopAll().finally(() => process.exit(1));
  }, budgetMinutes * 60_000).unref();
  const backend = process.env.REDIS_URL ? 'Redis (REDIS_URL)' : 'PostgreSQL (REDIS_URL unset)';
  let ok = false;
  try {
    const { adminUrl, kind } = await startPostgres();
    console.log(
      `bench/live: scenario ${scenario}, ${viewers} viewers, ${concurrency} at a time, history ${history}; ${kind}, live backend ${backend}; load average ${load().join(' ')}`,
    );
    if (scenario === 'failover') ok = await failover(adminUrl, { viewers, concurrency, split });
    else if (scenario === 'qa') ok = await qa(adminUrl, { viewers, concurrency });
    else if (scenario === 'storm') ok = await storm(adminUrl, { viewers, concurrency });
    else ok = await audience(adminUrl);
  } finally {
    await stopAll();
  }
  console.log(`\nload average at the end: ${load().join(' ')}`);
  process.exit(ok ? 0 : 1);
}

await main();
