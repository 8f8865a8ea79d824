// The audience scenario: N anonymous viewers take gateway tokens and join a live public broadcast,
// then the host sends 10 chat messages, an announcement and a poll. Once through the real server
// (history on or off) and once through the bare baseline, with the same tokens and messages.
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import type WebSocket from 'ws';
import { Crowd, type FanOutFigures, hostScript, type JoinFigures, openHost } from './crowd';
import { productionNodeFlags } from '../../events/src/node-flags';
import {
  ask,
  type CpuUse,
  cpuMeter,
  freePort,
  load,
  type SettledMemory,
  settledMemory,
  sleep,
  startHelper,
  startServer,
} from './infra';
import { anonymousToken, type Scene, setUpScene } from './setup';
import { inPool } from './stats';

export interface Options {
  viewers: number;
  concurrency: number;
}

export interface WebhookFigures {
  /** participant.joined requests received (retries included). */
  requests: number;
  distinctIds: number;
  /** Distinct anonymous viewers named. */
  viewers: number;
  /** From the last join to the last webhook, or null when not all arrived within 30 s. */
  allWithinMs: number | null;
}

export interface RunFigures {
  name: string;
  load: number[];
  tokensPerSecond?: number;
  tokensRefreshed?: number;
  /** CPU of the server (or baseline) and of the load generator while tokens were issued and while joining, % of one core. */
  cpu: { tokens?: CpuUse; joins: CpuUse };
  join: JoinFigures;
  joinsPerSecond: number;
  /** After a forced full collection (`settledMemory`), before the joins and with the sockets. */
  rssBeforeKb: number;
  rssAfterKb: number;
  kbPerSocket: number;
  /** The same for V8 heap in use + external memory (what the sockets keep alive, without allocator slack). */
  heapKbPerSocket: number;
  fanOut: FanOutFigures[];
  webhooks?: WebhookFigures;
}

/** Tokens are valid 5 minutes; one older than this is fetched again before its socket opens. */
const tokenFreshMs = 4 * 60 * 1000;

interface IssuedTokens {
  tokens: string[];
  issuedAt: Float64Array;
  perSecond: number;
  cpu: CpuUse;
}

async function issueTokens(
  baseUrl: string,
  eventId: string,
  pid: number,
  options: Options,
): Promise<IssuedTokens> {
  const cpu = cpuMeter(pid);
  const tokens = new Array<string>(options.viewers);
  const issuedAt = new Float64Array(options.viewers);
  const started = performance.now();
  await inPool(options.viewers, options.concurrency, async (i) => {
    tokens[i] = await anonymousToken(baseUrl, eventId);
    issuedAt[i] = Date.now();
  });
  return {
    tokens,
    issuedAt,
    perSecond: options.viewers / ((performance.now() - started) / 1000),
    cpu: cpu(),
  };
}

/** Counts participant.joined webhooks from `lastJoinAt` until every viewer's arrived or 30 s passed. */
async function awaitWebhooks(
  receiver: ChildProcess,
  viewers: number,
  lastJoinAt: number,
): Promise<WebhookFigures> {
  for (;;) {
    const t = await ask<{ requests: number; distinctIds: number; viewers: number; lastAt: number }>(
      receiver,
      {
        count: 'participant.joined',
      },
    );
    const done = t.viewers >= viewers;
    if (done || Date.now() - lastJoinAt > 30_000) {
      return { ...t, allWithinMs: done ? Math.max(0, t.lastAt - lastJoinAt) : null };
    }
    await sleep(250);
  }
}

async function speak(crowd: Crowd, host: WebSocket): Promise<FanOutFigures[]> {
  const figures: FanOutFigures[] = [];
  for (let k = 0; k < hostScript.length; k++) {
    figures.push(await crowd.fanOut(host, k));
    // The gateway allows a host 10 messages a second: stay well under it.
    await sleep(150);
  }
  return figures;
}

/** What the baseline needs from a server run to do the same work. */
export interface ForBaseline {
  keys: { kid: string; jwk: unknown }[];
  tokens: string[];
  hostToken: string;
  welcomeBytes: number;
  templates: string[];
}

/** One run through the real server on a fresh database; it is killed once its figures are taken. */
export async function serverRun(
  name: string,
  databaseUrl: string,
  env: Record<string, string>,
  receiver: { child: ChildProcess; url: string },
  options: Options,
): Promise<{ figures: RunFigures; forBaseline: ForBaseline }> {
  const server = await startServer(name, { DATABASE_URL: databaseUrl, ...env });
  const wsBase = server.url.replace('http', 'ws');
  await ask(receiver.child, { reset: true, count: '' });
  const scene: Scene = await setUpScene(server.url, receiver.url);
  const host = await openHost(wsBase, scene.hostToken);
  const issued = await issueTokens(server.url, scene.eventId, server.pid, options);
  console.error(`${name}: ${options.viewers} tokens at ${issued.perSecond.toFixed(0)}/s; joining`);
  await sleep(1000);
  const before = await settledMemory(server.inspectPort);
  const crowd = new Crowd(options.viewers);
  let refreshed = 0;
  const joinCpu = cpuMeter(server.pid);
  const progress = setInterval(() => console.error(`${name}: ${crowd.connected} connected`), 15_000);
  const join = await crowd.join(
    wsBase,
    async (i) => {
      if (Date.now() - issued.issuedAt[i]! > tokenFreshMs) {
        refreshed++;
        issued.tokens[i] = await anonymousToken(server.url, scene.eventId);
      }
      return issued.tokens[i]!;
    },
    options.concurrency,
  );
  const joinsCpu = joinCpu();
  clearInterval(progress);
  const lastJoinAt = Date.now();
  const webhooks = awaitWebhooks(receiver.child, join.joined, lastJoinAt);
  await sleep(2000);
  const after = await settledMemory(server.inspectPort);
  const fanOut = await speak(crowd, host);
  const figures: RunFigures = {
    name,
    load: load(),
    tokensPerSecond: issued.perSecond,
    tokensRefreshed: refreshed,
    cpu: { tokens: issued.cpu, joins: joinsCpu },
    join,
    joinsPerSecond: join.joined / (join.wallMs / 1000),
    ...memoryFigures(before, after, join.joined),
    fanOut,
    webhooks: await webhooks,
  };
  const keys = await signingKeys(databaseUrl);
  host.terminate();
  // Killed: a drain would fire every viewer's participant.left. A profiled server stops so it writes its profile.
  await (process.env.BENCH_PROFILE ? server.stop() : server.kill());
  crowd.terminate();
  return {
    figures,
    forBaseline: {
      keys,
      tokens: issued.tokens,
      hostToken: scene.hostToken,
      welcomeBytes: join.welcomeBytes,
      templates: crowd.captured,
    },
  };
}

async function signingKeys(databaseUrl: string): Promise<{ kid: string; jwk: unknown }[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ kid: string; public_jwk: unknown }>(
      `select kid, public_jwk from signing_key where purpose = 'gateway'`,
    );
    return rows.map((r) => ({ kid: r.kid, jwk: r.public_jwk }));
  } finally {
    await db.end();
  }
}

/** The same joins and messages through the bare baseline. */
export async function baselineRun(input: ForBaseline, options: Options): Promise<RunFigures> {
  const inspectPort = await freePort();
  const { child, ready: port } = await startHelper<number>(
    'baseline-proc.ts',
    {
      BASELINE_KEYS: JSON.stringify(input.keys),
      BASELINE_WELCOME_BYTES: String(input.welcomeBytes),
      BASELINE_TEMPLATES: JSON.stringify(input.templates),
    },
    // The server's runtime flags, so the two differ in code only.
    [...productionNodeFlags(), `--inspect=127.0.0.1:${inspectPort}`],
  );
  const wsBase = `ws://127.0.0.1:${port}`;
  const host = await openHost(wsBase, input.hostToken);
  await sleep(1000);
  const before = await settledMemory(inspectPort);
  const crowd = new Crowd(options.viewers);
  const joinCpu = cpuMeter(child.pid!);
  const join = await crowd.join(wsBase, async (i) => input.tokens[i]!, options.concurrency);
  const joinsCpu = joinCpu();
  await sleep(2000);
  const after = await settledMemory(inspectPort);
  const fanOut = await speak(crowd, host);
  const figures: RunFigures = {
    name: 'baseline (bare ws)',
    load: load(),
    cpu: { joins: joinsCpu },
    join,
    joinsPerSecond: join.joined / (join.wallMs / 1000),
    ...memoryFigures(before, after, join.joined),
    fanOut,
  };
  host.terminate();
  child.kill('SIGKILL');
  crowd.terminate();
  return figures;
}

function memoryFigures(before: SettledMemory, after: SettledMemory, sockets: number) {
  const n = Math.max(1, sockets);
  return {
    rssBeforeKb: before.rssKb,
    rssAfterKb: after.rssKb,
    kbPerSocket: (after.rssKb - before.rssKb) / n,
    heapKbPerSocket: (after.heapAndExternalKb - before.heapAndExternalKb) / n,
  };
}
