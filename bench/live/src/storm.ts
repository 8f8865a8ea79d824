// The storm scenario: N anonymous viewers of a live public broadcast take part at once, four times in
// a row: every viewer votes on the host's poll within 10 s; every viewer sends 3 reactions within
// 10 s; 10 % of the viewers send a chat line within 10 s; every viewer votes on a question within 10 s.
// In the middle of each the host sends a chat line. Per storm: frames and bytes per viewer, the time
// for every viewer to see the exact final count after the last vote, the host's line (p50/p99) against
// the same run's quiet fan-out p99, /healthz latency during the storm, server CPU per action, RSS;
// at the end, the stored votes, totals, chat log and question.created webhooks against what was sent.
import { readFileSync } from 'node:fs';
import { createClient } from '@gathercast/sdk';
import type WebSocket from 'ws';
import { Crowd, openHost } from './crowd';
import { ask, cpuMeter, freshDatabase, load, sleep, startHelper, startServer } from './infra';
import { anonymousToken, setUpScene } from './setup';
import { inPool, ms, percentile, seconds } from './stats';
import { StormViews, stormMarker } from './storm-views';

const windowMs = 10_000;
const settleBudgetMs = 30_000;
const target = { finalWithinMs: 1000, hostRatio: 1.5, healthP99Ms: 100, framesPerSecond: 5 };

interface StormFigures {
  name: string;
  actions: number;
  framesPerViewer: number;
  kbPerViewer: number;
  framesPerViewerSecond: number;
  finalAfterLastMs: number | null;
  finalMissing: number;
  host: { p50: number; p99: number; missing: number };
  health: { p50: number; p99: number; max: number };
  cpuMsPerAction: number;
  rssMb: number;
}

const rssMbOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** /healthz answered every 100 ms while `running()` holds: latencies in ms. */
async function sampleHealth(url: string, running: () => boolean): Promise<number[]> {
  const out: number[] = [];
  while (running()) {
    const t0 = performance.now();
    await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
    out.push(performance.now() - t0);
    await sleep(100);
  }
  return out;
}

export async function storm(
  adminUrl: string,
  options: { viewers: number; concurrency: number },
): Promise<boolean> {
  const n = options.viewers;
  const server = await startServer('server', { DATABASE_URL: await freshDatabase(adminUrl) });
  const receiver = await startHelper<string>('receiver-proc.ts', {});
  const scene = await setUpScene(server.url, receiver.ready, ['question.created'], {
    allowAnonymousQuestions: true,
    allowAnonymousVoting: true,
  });
  const gc = createClient({ baseUrl: server.url, apiKey: scene.apiKey });
  const wsBase = server.url.replace('http', 'ws');
  const tokens = new Array<string>(n);
  await inPool(n, options.concurrency, async (i) => {
    tokens[i] = await anonymousToken(server.url, scene.eventId);
  });
  const views = new StormViews(n);
  const crowd = new Crowd(n, (i, data) => views.frame(i, data));
  const join = await crowd.join(wsBase, async (i) => tokens[i]!, options.concurrency);
  console.error(`storm: ${join.joined} viewers joined (${join.failed} failed) in ${seconds(join.wallMs)}`);
  // A fresh host token: the scene's may have expired (5 minutes) while a crowd joined a starved machine.
  const owner = createClient({ baseUrl: server.url, sessionToken: scene.sessionToken });
  const host = await openHost(wsBase, (await owner.gateway.token({ eventId: scene.eventId })).token);
  await sleep(2000);

  let markers = 0;
  /** The host says a line; resolves when every viewer has it (or after 15 s): latencies from sending. */
  const hostLine = async () => {
    views.hostMarker = `${stormMarker}${++markers}|`;
    views.hostAt.fill(0);
    const sentAt = performance.now();
    host.send(JSON.stringify({ type: 'chat.send', text: `${views.hostMarker} the host speaks` }));
    for (const until = sentAt + 15_000; performance.now() < until; await sleep(20))
      if (views.hostAt.every((t, i) => t > 0 || !crowd.isOpen(i))) break;
    return StormViews.latencies(views.hostAt, sentAt);
  };

  // Quiet fan-out: the same host line with nobody else doing anything, five times.
  const quiet = [];
  for (let k = 0; k < 5; k++) quiet.push(await hostLine());
  const quietP99 = Math.max(...quiet.map((q) => q.p99));
  console.error(`storm: quiet fan-out p99 ${ms(quietP99)}`);

  const figures: StormFigures[] = [];
  const run = async (
    name: string,
    senders: number,
    perSender: number,
    message: (i: number, j: number) => string,
    final?: StormViews['final'],
  ): Promise<StormFigures> => {
    views.reset();
    views.final = final;
    const actions = senders * perSender;
    const cpu = cpuMeter(server.pid);
    let storming = true;
    const health = sampleHealth(server.url, () => storming);
    const started = performance.now();
    let sent = 0;
    let hostFigures: Promise<{ p50: number; p99: number; missing: number }> | undefined;
    while (sent < actions) {
      const due = Math.min(actions, Math.ceil(((performance.now() - started) / windowMs) * actions));
      for (; sent < due; sent++)
        crowd.send(sent % senders, message(sent % senders, Math.floor(sent / senders)));
      if (!hostFigures && performance.now() - started >= windowMs / 2) hostFigures = hostLine();
      await sleep(5);
    }
    const lastAt = performance.now();
    const host = await (hostFigures ?? hostLine());
    if (final)
      while (views.finals < crowd.connected && performance.now() - lastAt < settleBudgetMs) await sleep(20);
    else await sleep(1500);
    storming = false;
    const healthMs = await health;
    const used = cpu();
    const endedAt = performance.now();
    const finals = StormViews.latencies(views.finalAt, lastAt);
    let frames = 0;
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      frames += views.frames[i]!;
      bytes += views.bytes[i]!;
    }
    const f: StormFigures = {
      name,
      actions,
      framesPerViewer: frames / n,
      kbPerViewer: bytes / n / 1024,
      framesPerViewerSecond: frames / n / ((endedAt - started) / 1000),
      finalAfterLastMs: final ? (finals.missing ? null : Math.max(0, finals.max)) : null,
      finalMissing: final ? finals.missing : 0,
      host,
      health: {
        p50: percentile(healthMs, 50),
        p99: percentile(healthMs, 99),
        max: percentile(healthMs, 100),
      },
      cpuMsPerAction: (1000 * used.serverSeconds) / Math.max(1, actions),
      rssMb: rssMbOf(server.pid),
    };
    console.error(`storm: ${row(f)}`);
    figures.push(f);
    return f;
  };

  // 1. Poll: every viewer votes once.
  host.send(
    JSON.stringify({
      type: 'poll.create',
      question: 'Where are you watching from?',
      options: ['EU', 'AM', 'AS', 'Other'],
    }),
  );
  const pollId = await waitFor(async () => (await gc.polls.list(scene.eventId)).polls[0]?.id);
  const pollFinal = (m: Record<string, unknown>) =>
    m.type === 'poll' && m.pollId === pollId && (m.counts as number[]).reduce((a, b) => a + b, 0) === n;
  await run('poll', n, 1, (i) => JSON.stringify({ type: 'poll.vote', pollId, option: i % 4 }), {
    hint: pollId,
    test: pollFinal,
  });
  // 2. Reactions: three each.
  const emojis = ['👏', '🎉', '❤️'];
  await run('reactions', n, 3, (_i, j) => JSON.stringify({ type: 'reaction.send', emoji: emojis[j]! }));
  // 3. Chat: one line from 10 % of the viewers.
  const chatters = Math.max(1, Math.floor(n / 10));
  await run('chat', chatters, 1, (i) =>
    JSON.stringify({ type: 'chat.send', text: `viewer ${i} watching from afar` }),
  );
  // 4. Q&A votes: every viewer votes on the host's question.
  host.send(JSON.stringify({ type: 'question.create', text: 'What should we cover next?' }));
  const questionId = await waitFor(async () => (await gc.questions.list(scene.eventId)).questions[0]?.id);
  await run('qa votes', n, 1, () => JSON.stringify({ type: 'question.vote', questionId }), {
    hint: questionId,
    test: (m) => m.type === 'question.updated' && m.questionId === questionId && m.votes === n,
  });

  // What was stored and delivered, against what was sent.
  const [polls, reactions, questions] = await Promise.all([
    gc.polls.list(scene.eventId),
    gc.reactions.list(scene.eventId),
    gc.questions.list(scene.eventId),
  ]);
  let chatLines = 0;
  for (let cursor: string | undefined; ; ) {
    const page = await gc.chat.list(scene.eventId, cursor ? { cursor } : {});
    chatLines += page.messages.length;
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  await sleep(3000);
  const hooks = await ask<{ requests: number; distinctIds: number; questions: number }>(receiver.child, {
    count: 'question.created',
  });
  const stillOpen = crowd.connected;
  closeHost(host);
  await server.kill();
  crowd.terminate();

  console.log(`\n== storm (load average ${load().join(' ')})`);
  console.log(
    `viewers             ${join.joined} joined, ${join.failed} failed, in ${seconds(join.wallMs)}; ${stillOpen} still connected at the end`,
  );
  console.log(
    `quiet fan-out       host line p99 ${ms(quietP99)} (worst of 5; p50s ${quiet.map((q) => ms(q.p50)).join(', ')})`,
  );
  console.log(
    'storm        actions  frames/viewer  KB/viewer  frames/viewer/s  final after last  host p50 / p99        healthz p50 / p99 / max   CPU/action  RSS',
  );
  for (const f of figures) console.log(row(f));
  const poll = polls.polls.find((p) => p.id === pollId);
  const reactionSum = reactions.reactions.reduce((a, r) => a + r.count, 0);
  const question = questions.questions.find((q) => q.id === questionId);
  const hostLines = markers;
  console.log(
    `stored              poll ${poll?.votes} votes; reactions ${reactionSum}; chat log ${chatLines} lines (${chatters} viewers' + ${hostLines} host's); question ${question?.votes} votes`,
  );
  console.log(
    `question.created    ${hooks.requests} webhooks, ${hooks.distinctIds} distinct ids, ${hooks.questions} questions`,
  );

  let ok = true;
  const check = (what: string, pass: boolean) => {
    ok &&= pass;
    console.log(`${pass ? 'PASS' : 'FAIL'}  ${what}`);
  };
  console.log('\n-- targets for storm');
  check(
    `${join.joined} of ${n} joined, ${stillOpen} still connected (target: all, 0 dropped)`,
    join.joined === n && stillOpen === n,
  );
  const pollRun = figures[0]!;
  check(
    `poll: every viewer saw the exact final counts ${pollRun.finalAfterLastMs === null ? `— ${pollRun.finalMissing} never did` : `${ms(pollRun.finalAfterLastMs)} after the last vote`} (target <= ${ms(target.finalWithinMs)})`,
    pollRun.finalAfterLastMs !== null && pollRun.finalAfterLastMs <= target.finalWithinMs,
  );
  for (const f of figures) {
    check(
      `${f.name}: host line p99 ${ms(f.host.p99)}, ${(f.host.p99 / Math.max(quietP99, 1)).toFixed(2)}x the quiet p99 (target <= ${target.hostRatio}x)`,
      f.host.p99 <= target.hostRatio * quietP99 && f.host.missing === 0,
    );
    check(
      `${f.name}: /healthz p99 ${ms(f.health.p99)} (target <= ${target.healthP99Ms} ms)`,
      f.health.p99 <= target.healthP99Ms,
    );
    check(
      `${f.name}: ${f.framesPerViewerSecond.toFixed(2)} frames per viewer per second (target <= ${target.framesPerSecond})`,
      f.framesPerViewerSecond <= target.framesPerSecond,
    );
  }
  check(`poll votes stored ${poll?.votes} (target ${n})`, poll?.votes === n);
  check(`reactions counted ${reactionSum} (target ${3 * n})`, reactionSum === 3 * n);
  check(`chat log ${chatLines} lines (target ${chatters + hostLines})`, chatLines === chatters + hostLines);
  check(`question votes stored ${question?.votes} (target ${n})`, question?.votes === n);
  check(
    `question.created: ${hooks.requests} webhooks, ${hooks.questions} questions (target 1 and 1)`,
    hooks.requests === 1 && hooks.questions === 1,
  );
  return ok;
}

const row = (f: StormFigures) =>
  `${f.name.padEnd(12)} ${String(f.actions).padStart(7)}  ${f.framesPerViewer.toFixed(1).padStart(13)}  ${f.kbPerViewer.toFixed(1).padStart(9)}  ${f.framesPerViewerSecond.toFixed(2).padStart(15)}  ${(f.finalAfterLastMs === null ? (f.finalMissing ? `${f.finalMissing} missing` : '—') : ms(f.finalAfterLastMs)).padStart(16)}  ${`${ms(f.host.p50)} / ${ms(f.host.p99)}`.padStart(19)}  ${`${ms(f.health.p50)} / ${ms(f.health.p99)} / ${ms(f.health.max)}`.padStart(24)}  ${`${f.cpuMsPerAction.toFixed(2)} ms`.padStart(10)}  ${f.rssMb.toFixed(0)} MB`;

function closeHost(host: WebSocket): void {
  host.terminate();
}

async function waitFor<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (const until = Date.now() + 180_000; Date.now() < until; await sleep(250)) {
    const value = await read();
    if (value !== undefined) return value;
  }
  throw new Error('storm: the host’s poll or question was not stored within 180 s');
}
