// The failover scenario: two server processes on one database (and Redis when REDIS_URL is set), the
// viewers on process A through the SDK's LiveConnection (automatic reconnect and resume), the host on
// B. A is SIGKILLed while the host keeps talking: how long until every viewer has resumed on B, and
// how many of the host's messages did a viewer never see? With `split`, half the viewers are on each
// process (one audience on two processes): before the kill every viewer's `audience` count must read
// everyone, and after it (A's presence entries swept) it must converge on everyone again.
import { LiveConnection, type WebSocketConstructor } from '@gathercast/sdk';
import WebSocket from 'ws';
import { openHost } from './crowd';
import { ask, cpuMeter, freshDatabase, load, sleep, startHelper, startServer } from './infra';
import { anonymousToken, setUpScene } from './setup';
import { inPool, ms, percentile, seconds } from './stats';

const marker = 'bench#';
/** The host talks at 5 messages a second (the gateway allows a socket 10). */
const talkEveryMs = 200;
const maxMessages = 2000;
/** How long a crashed process's presence entries live (the server's default). */
const presenceExpiryMs = 30_000;

/** Every socket the SDK opens is counted: after the kill, attempts beyond one per viewer are retries. */
let socketsOpened = 0;
class CountedWebSocket extends WebSocket {
  constructor(url: string) {
    super(url);
    socketsOpened++;
  }
}

interface Viewer {
  live: LiveConnection;
  /** The last `audience` total this viewer was sent. */
  total: number;
  onA: boolean;
  participantId: string;
  seen: Uint8Array;
  duplicates: number;
  resumedAt: number;
  /** When its socket's drop was noticed (the SDK's `disconnected`). */
  droppedAt: number;
  resets: number;
}

export async function failover(
  adminUrl: string,
  options: { viewers: number; concurrency: number; split?: boolean },
): Promise<boolean> {
  const databaseUrl = await freshDatabase(adminUrl);
  const a = await startServer('A', { DATABASE_URL: databaseUrl });
  const b = await startServer('B', { DATABASE_URL: databaseUrl });
  const wsA = a.url.replace('http', 'ws');
  const wsB = b.url.replace('http', 'ws');
  const receiver = await startHelper<string>('receiver-proc.ts', {});
  const scene = await setUpScene(b.url, receiver.ready, ['participant.joined', 'participant.left']);
  const host = await openHost(wsB, scene.hostToken);
  // The host's own copy of each line: a line it never got back was refused by the gateway (never
  // published), which is a failure of its own, not a message the failover lost.
  const published = new Uint8Array(maxMessages);
  host.on('message', (data: Buffer) => {
    const at = data.indexOf(marker);
    if (at >= 0 && data.includes('"type":"chat.message"'))
      published[Number.parseInt(data.toString('utf8', at + marker.length, at + marker.length + 6), 10)] = 1;
  });

  // The load balancer: new connections go to A while it lives, then to B.
  let aAlive = true;
  const viewers: Viewer[] = [];
  let failedJoins = 0;
  let failedAttempts = 0;
  const joinStarted = performance.now();
  // A viewer whose join times out (the SDK waits 10 s for the welcome) reloads: a fresh token, up to 3 times.
  const joinOnce = async (toB: boolean) => {
    const token = await anonymousToken(a.url, scene.eventId);
    return LiveConnection.open(() => `${aAlive && !toB ? wsA : wsB}/v1/live?token=${token}`, {
      WebSocket: CountedWebSocket as unknown as WebSocketConstructor,
    });
  };
  await inPool(options.viewers, options.concurrency, async (i) => {
    const toB = options.split === true && i % 2 === 1;
    let live: LiveConnection | undefined;
    for (let attempt = 0; !live && attempt < 3; attempt++) {
      try {
        live = await joinOnce(toB);
      } catch (err) {
        if (failedAttempts++ < 3) console.error(`a join failed: ${err instanceof Error ? err.message : err}`);
      }
    }
    if (!live) {
      failedJoins++;
      return;
    }
    const v: Viewer = {
      live,
      total: 0,
      onA: !toB,
      participantId: live.welcome.identity.participantId,
      seen: new Uint8Array(maxMessages),
      duplicates: 0,
      resumedAt: 0,
      droppedAt: 0,
      resets: 0,
    };
    live.on('chat.message', (m) => {
      if (!m.text.startsWith(marker)) return;
      const k = Number.parseInt(m.text.slice(marker.length), 10);
      if (v.seen[k]) v.duplicates++;
      v.seen[k] = 1;
    });
    live.on('audience', (m) => {
      v.total = m.total;
    });
    live.on('disconnected', () => {
      v.droppedAt = Date.now();
    });
    live.on('resumed', () => {
      v.resumedAt = Date.now();
    });
    live.on('reset', () => {
      v.resets++;
      v.resumedAt = Date.now();
    });
    viewers.push(v);
  });
  const joinSeconds = (performance.now() - joinStarted) / 1000;

  let k = 0;
  const talking = setInterval(() => {
    if (k < maxMessages) host.send(JSON.stringify({ type: 'chat.send', text: `${marker}${k++} still here` }));
  }, talkEveryMs);
  const waitFor = async (cond: () => boolean, timeoutMs: number) => {
    for (const until = Date.now() + timeoutMs; !cond() && Date.now() < until; ) await sleep(50);
  };
  await waitFor(() => k >= 10, 10_000);
  // Everyone (and the host) counted on both processes; counts reach a large audience every few seconds.
  const everyone = viewers.length + 1;
  const countedAt = Date.now();
  await waitFor(() => viewers.every((v) => v.total === everyone), 30_000);
  const countedBeforeKill = viewers.filter((v) => v.total === everyone).length;
  const countSeconds = (Date.now() - countedAt) / 1000;

  const killedAt = Date.now();
  const openedBeforeKill = socketsOpened;
  const recoveryCpu = cpuMeter(b.pid);
  aAlive = false;
  await a.kill();
  // Only A's viewers move; B's keep their sockets.
  const moving = viewers.filter((v) => v.onA);
  await waitFor(() => moving.every((v) => v.resumedAt > 0), 60_000);
  const backAt = Date.now();
  const cpu = recoveryCpu();
  const attempts = socketsOpened - openedBeforeKill;
  await sleep(2000);
  clearInterval(talking);
  const last = k - 1;
  // The host's copy of its last line first (a refused line never comes back), then everyone's.
  await waitFor(() => published[last] === 1, 10_000);
  await waitFor(() => viewers.every((v) => v.seen[last] === 1 || !published[last]), 10_000);
  let refused = 0;
  for (let i = 0; i <= last; i++) if (!published[i]) refused++;

  // A resume within the window is not a new participant: no participant.left / participant.joined pair,
  // also after the crashed process's presence entries expired (30 s) and were swept.
  await sleep(Math.max(0, killedAt + presenceExpiryMs + 5000 - Date.now()));
  await waitFor(() => viewers.every((v) => v.total === everyone), 30_000);
  const countedAfterSweep = viewers.filter((v) => v.total === everyone).length;
  type Tally = { requests: number; distinctIds: number; viewers: number; perViewer: Record<string, number> };
  // Deliveries are paced while B is busy: give the last participant.joined up to a minute more to
  // arrive, so that one still on its way is not taken for a viewer never announced.
  let joined = await ask<Tally>(receiver.child, { count: 'participant.joined', perViewer: true });
  for (const until = Date.now() + 60_000; joined.viewers < viewers.length && Date.now() < until; ) {
    await sleep(1000);
    joined = await ask<Tally>(receiver.child, { count: 'participant.joined', perViewer: true });
  }
  const left = await ask<Tally>(receiver.child, { count: 'participant.left', perViewer: true });
  // Only the joined viewers count: a join that timed out left its own participant behind.
  const leftViewers = viewers.filter((v) => left.perViewer[v.participantId]).length;
  const joinedTwice = viewers.filter((v) => (joined.perViewer[v.participantId] ?? 0) > 1).length;
  const joinedOnce = viewers.filter((v) => joined.perViewer[v.participantId] === 1).length;

  const back = moving.filter((v) => v.resumedAt > 0);
  const downtimes = back.map((v) => v.resumedAt - killedAt);
  // Where a slow return spent its time: noticing the drop, or being taken back.
  const droppedByKill = back.filter((v) => v.droppedAt >= killedAt);
  const noticed = droppedByKill.map((v) => v.droppedAt - killedAt);
  const takenBack = droppedByKill.map((v) => v.resumedAt - v.droppedAt);
  const resets = viewers.reduce((n, v) => n + v.resets, 0);
  let lost = 0;
  let viewersWithLoss = 0;
  let duplicates = 0;
  for (const v of viewers) {
    let missing = 0;
    for (let i = 0; i <= last; i++) if (published[i] && !v.seen[i]) missing++;
    lost += missing;
    if (missing) viewersWithLoss++;
    duplicates += v.duplicates;
  }
  const allBackMs = back.length === moving.length ? Math.max(...downtimes) : null;

  console.log(`\n== failover (load average ${load().join(' ')})`);
  const onA = viewers.filter((v) => v.onA).length;
  console.log(
    `viewers             ${viewers.length} joined (${onA} on A, ${viewers.length - onA} on B) (${failedJoins} failed; ${failedAttempts} attempts timed out and were retried with a fresh token) in ${joinSeconds.toFixed(1)} s, LiveConnection each`,
  );
  console.log(
    `host messages       ${last + 1} chat messages, one every ${talkEveryMs} ms, from B; A SIGKILLed after the 10th; ${refused} refused by the gateway (within its 10 a second: counted as a failure, not as lost)`,
  );
  console.log(
    `back on B           ${back.length} of ${moving.length} (${resets} reset instead of resumed); ` +
      `after the kill: p50 ${ms(percentile(downtimes, 50))}, p99 ${ms(percentile(downtimes, 99))}, all ${allBackMs === null ? `not within ${seconds(backAt - killedAt)}` : seconds(allBackMs)}`,
  );
  console.log(
    `  of which          noticing the drop p50 ${ms(percentile(noticed, 50))}, p99 ${ms(percentile(noticed, 99))}, max ${ms(Math.max(0, ...noticed))}; ` +
      `from the drop to the welcome p50 ${ms(percentile(takenBack, 50))}, p99 ${ms(percentile(takenBack, 99))}, max ${ms(Math.max(0, ...takenBack))}`,
  );
  console.log(
    `reconnecting        ${attempts} sockets opened for ${moving.length} viewers; B used ${cpu.server.toFixed(0)} % of a core, the load generator ${cpu.loader.toFixed(0)} %`,
  );
  console.log(
    `messages lost       ${lost} (${viewersWithLoss} viewers missed any), ${duplicates} handed on twice`,
  );
  console.log(
    `webhooks            of the ${viewers.length} viewers: participant.joined once for ${joinedOnce}, twice or more for ${joinedTwice}; ` +
      `participant.left for ${leftViewers} (counted ${seconds(presenceExpiryMs + 5000)} after the kill)`,
  );

  await Promise.all(viewers.map((v) => v.live.close()));
  host.terminate();
  // A resumed viewer keeps its one participant.joined and gets no participant.left.
  const churn = leftViewers > 0 || joinedTwice > 0 || joinedOnce < viewers.length;
  console.log(
    `audience count      ${countedBeforeKill} of ${viewers.length} viewers read ${everyone} before the kill (after waiting ${countSeconds.toFixed(1)} s), ${countedAfterSweep} after A's entries were swept`,
  );
  const countsRight = countedBeforeKill === viewers.length && countedAfterSweep === viewers.length;
  const ok =
    countsRight &&
    allBackMs !== null &&
    allBackMs <= 10_000 &&
    lost === 0 &&
    refused === 0 &&
    resets === 0 &&
    failedJoins === 0 &&
    !churn;
  console.log(
    `\n${ok ? 'PASS' : 'FAIL'}  ${countsRight ? 'counts right on both processes' : 'counts wrong (above)'}, all resumed within ${allBackMs === null ? '—' : seconds(allBackMs)} (target <= 10 s), ${lost} lost (target 0), ${refused} host messages refused, ${resets} resets, ${failedJoins} failed joins, ${churn ? 'presence churn (webhooks above)' : 'no presence churn'}`,
  );
  return ok;
}
