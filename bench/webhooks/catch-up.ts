/**
 * Catch-up of a receiver that was down for 72 hours, loopback only and bounded:
 *   1. history: BENCH_HISTORY notifications spread over the last 80 hours, written straight into the
 *      workspace's event log (aged rows with their sequence numbers, cloned from a real
 *      `event.published` the API recorded), and the workspace's sequence moved past them: 72 hours
 *      are simulated, not waited for. The receiver processed everything up to 72 hours ago;
 *   2. the feed: it pages `GET /v1/event-log?after=<last seen>` to the end, and the bench checks
 *      that the sequence numbers read are exactly last seen + 1 … the newest (0 gaps, 0 repeats);
 *   3. the replay: `POST /v1/webhooks/{id}/redeliver {fromSequence}` queues everything it missed,
 *      one server process delivers it to a local receiver; the bench checks that every number
 *      arrived (0 gaps) and prints deliveries/s from the call to the last receipt (target ≥ 500/s).
 * The machine's load average is printed with the figures: the 2 cores are shared with other work.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres pnpm --filter @gathercast/bench-webhooks bench:catch-up
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { hashSecret, newSecret, secretPrefixes } from '../../server/src/lib/secrets';
import { freshDatabase, load, onStop, sleep, startServer, stopAll } from '../support/src/index';

const history = Number(process.env.BENCH_HISTORY ?? 5000);
const historyHours = 80;
const outageHours = 72;
const seconds = (ms: number) => +(ms / 1000).toFixed(2);

// ---- receiver: the sequence numbers that arrived, and how often -----------------------------------
const arrivals = new Map<number, number>();
let lastArrival = 0;
let awaiting: { want: number; done: () => void } | undefined;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { sequence } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { sequence: number };
    arrivals.set(sequence, (arrivals.get(sequence) ?? 0) + 1);
    lastArrival = performance.now();
    if (awaiting && arrivals.size >= awaiting.want) awaiting.done();
    res.writeHead(200, { 'content-length': '2' }).end('ok');
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// ---- database and server (bench/support: a scratch database, or an embedded PostgreSQL) ------------
onStop(async () => {
  receiver.close();
  receiver.closeAllConnections();
});
const { url: databaseUrl } = await freshDatabase();
const db = new pg.Client({ connectionString: databaseUrl });

try {
  const { url: base } = await startServer({
    databaseUrl,
    env: { WEBHOOK_ALLOW_INSECURE_URLS: 'true' },
  });
  await db.connect();

  // A workspace and its API key, written directly (the bench measures the feed, not signup).
  const workspaceId = randomUUID();
  const apiKey = newSecret(secretPrefixes.apiKey);
  await db.query(`insert into workspace (id, name, slug) values ($1, 'catch-up', $2)`, [
    workspaceId,
    `catch-up-${workspaceId.slice(0, 8)}`,
  ]);
  await db.query('insert into api_key (id, workspace_id, name, secret_hash) values ($1, $2, $3, $4)', [
    randomUUID(),
    workspaceId,
    'bench',
    hashSecret(apiKey),
  ]);
  const api = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    for (;;) {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      // Paging 72 hours of notifications is itself under the read budget: wait when told to.
      if (res.status === 429) {
        await res.arrayBuffer();
        await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    }
  };

  // One real notification, then the history cloned from it: aged rows numbered 1..history before it.
  const event = await api<{ id: string }>('POST', '/v1/events', { type: 'webinar', title: 'Catch-up' });
  await api('POST', `/v1/events/${event.id}/publish`);
  await db.query('begin');
  await db.query('update domain_event set seq = seq + $2 where workspace_id = $1', [workspaceId, history]);
  await db.query(
    `insert into domain_event (id, type, workspace_id, event_id, payload, occurred_at, seq)
     select gen_random_uuid(), d.type, d.workspace_id, d.event_id, d.payload,
            now() - make_interval(hours => $3) + (i * make_interval(hours => $3) / $2), i
       from generate_series(1, $2::int) i,
            (select * from domain_event where workspace_id = $1 and type = 'event.published' limit 1) d`,
    [workspaceId, history, historyHours],
  );
  const {
    rows: [{ newest, lastSeen }],
  } = await db.query(
    `update workspace_event_seq set last_seq = (select max(seq) from domain_event where workspace_id = $1)
      where workspace_id = $1
      returning last_seq::int as newest,
                (select max(seq)::int from domain_event
                  where workspace_id = $1 and occurred_at <= now() - make_interval(hours => $2)) as "lastSeen"`,
    [workspaceId, outageHours],
  );
  await db.query('commit');
  const missed = newest - lastSeen;

  // The receiver's endpoint (created now: the ones its deliveries failed on would look the same).
  const endpoint = await api<{ id: string }>('POST', '/v1/webhooks', { url: receiverUrl });
  const results: Record<string, unknown> = {
    cores: (await import('node:os')).cpus().length,
    loadAverageAtStart: load(),
    notificationsIn80Hours: newest,
    lastSeenBeforeOutage: lastSeen,
    missedIn72Hours: missed,
  };

  // 2. The feed, from the last number seen to the end.
  const feedStart = performance.now();
  const read: number[] = [];
  let pages = 0;
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const query: string = cursor ? `cursor=${cursor}` : `after=${lastSeen}`;
    const page: { events: { sequence: number }[]; nextCursor: string | null } = await api(
      'GET',
      `/v1/event-log?${query}&limit=100`,
    );
    pages++;
    read.push(...page.events.map((e) => e.sequence));
    cursor = page.nextCursor;
  }
  const feedMs = performance.now() - feedStart;
  const feedGaps = read.filter((seq, i) => seq !== lastSeen + 1 + i).length + Math.abs(read.length - missed);
  results.feed = {
    read: read.length,
    pages,
    seconds: seconds(feedMs),
    notificationsPerSecond: Math.round(read.length / (feedMs / 1000)),
    gapsOrRepeats: feedGaps,
    loadAverage: load(),
  };

  // 3. The replay of the same range through webhooks.
  const replayStart = performance.now();
  const allArrived = new Promise<void>((resolve) => {
    awaiting = { want: missed, done: resolve };
  });
  const { queued } = await api<{ queued: number }>('POST', `/v1/webhooks/${endpoint.id}/redeliver`, {
    fromSequence: lastSeen + 1,
  });
  const queuedMs = performance.now() - replayStart;
  const deadline = Math.max(120_000, missed * 20);
  await Promise.race([allArrived, sleep(deadline)]);
  const replayMs = lastArrival - replayStart;
  let gaps = 0;
  for (let seq = lastSeen + 1; seq <= newest; seq++) if (!arrivals.has(seq)) gaps++;
  const repeats = [...arrivals.values()].reduce((sum, n) => sum + n - 1, 0);
  results.replay = {
    queued,
    queueCallMs: Math.round(queuedMs),
    received: arrivals.size,
    gaps,
    repeats,
    seconds: seconds(replayMs),
    deliveriesPerSecond: Math.round(arrivals.size / (replayMs / 1000)),
    target: '≥ 500/s per process',
    loadAverage: load(),
  };
  results.loadAverageAtEnd = load();
  console.log(JSON.stringify(results, null, 2));
} finally {
  await db.end().catch(() => {});
  await stopAll();
}
