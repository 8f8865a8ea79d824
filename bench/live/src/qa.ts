// The Q&A scenario: N anonymous viewers of a live broadcast each ask one question at once, and each
// votes on the next viewer's question (viewer i on i+1's) as soon as that question reaches its socket.
// Every question must be stored once with one question.created webhook, every vote counted once, and
// every viewer's last tally per question must end equal to the stored count.
import { createClient } from '@gathercast/sdk';
import { Crowd } from './crowd';
import { ask, cpuMeter, freshDatabase, load, sleep, startHelper, startServer } from './infra';
import { askMarker, QaViews } from './qa-views';
import { anonymousToken, setUpScene } from './setup';
import { inPool, ms, seconds } from './stats';

const target = {
  /** Every ask and every vote sent within this window from the first ask. */
  sendWindowMs: 10_000,
  /** Questions, votes, every viewer's tallies and the webhooks all there within this of the last vote. */
  settleMs: 30_000,
};

interface WebhookTally {
  requests: number;
  distinctIds: number;
  questions: number;
  lastAt: number;
  questionIds?: string[];
}

/** When each outcome was first seen complete, ms after the first ask (null: not within the budget). */
interface Outcomes {
  questionsStored: number | null;
  votesStored: number | null;
  converged: number | null;
  webhooks: number | null;
}

export async function qa(
  adminUrl: string,
  options: { viewers: number; concurrency: number },
): Promise<boolean> {
  const n = options.viewers;
  const databaseUrl = await freshDatabase(adminUrl);
  const server = await startServer('server', { DATABASE_URL: databaseUrl });
  const receiver = await startHelper<string>('receiver-proc.ts', {});
  const scene = await setUpScene(server.url, receiver.ready, ['question.created'], {
    allowAnonymousQuestions: true,
    allowAnonymousVoting: true,
  });
  const gc = createClient({ baseUrl: server.url, apiKey: scene.apiKey });

  const tokens = new Array<string>(n);
  await inPool(n, options.concurrency, async (i) => {
    tokens[i] = await anonymousToken(server.url, scene.eventId);
  });
  let votesSent = 0;
  let lastVoteAt = 0;
  const views = new QaViews(n, (i, asker, id) => {
    // Viewer i votes on the next viewer's question the moment its own socket shows it.
    if (asker !== (i + 1) % n) return;
    if (crowd.send(i, JSON.stringify({ type: 'question.vote', questionId: id }))) {
      votesSent++;
      lastVoteAt = performance.now();
    }
  });
  const crowd = new Crowd(n, (i, data) => views.frame(i, data));
  const join = await crowd.join(
    server.url.replace('http', 'ws'),
    async (i) => tokens[i]!,
    options.concurrency,
  );
  console.error(
    `qa: ${join.joined} viewers joined (${join.failed} failed) in ${seconds(join.wallMs)}; asking`,
  );
  await sleep(1000);

  const cpu = cpuMeter(server.pid);
  const firstAskAt = performance.now();
  const firstAskWall = Date.now();
  let asked = 0;
  for (let i = 0; i < n; i++) {
    if (
      crowd.send(
        i,
        JSON.stringify({ type: 'question.create', text: `${askMarker}${i} What about item ${i}?` }),
      )
    )
      asked++;
  }
  const askedWithinMs = performance.now() - firstAskAt;

  // Until every vote went out (or the send window is long gone), then the settling budget.
  const since = () => performance.now() - firstAskAt;
  while (votesSent < asked && since() < target.sendWindowMs + target.settleMs) await sleep(50);
  const sendWindowMs = votesSent > 0 ? lastVoteAt - firstAskAt : null;
  const settleFrom = votesSent > 0 ? lastVoteAt : performance.now();

  const outcomes: Outcomes = { questionsStored: null, votesStored: null, converged: null, webhooks: null };
  let stored = await storedQuestions(gc, scene.eventId, n);
  let hooks = await ask<WebhookTally>(receiver.child, { count: 'question.created' });
  const progress = setInterval(
    () =>
      console.error(
        `qa: ${stored.count} questions and ${stored.votes} votes stored, ${views.converged(stored.votesOf).viewers} viewers converged, ${hooks.questions} webhooks`,
      ),
    5000,
  );
  for (;;) {
    const now = since();
    if (outcomes.questionsStored === null || outcomes.votesStored === null) {
      stored = await storedQuestions(gc, scene.eventId, n);
      if (outcomes.questionsStored === null && stored.count >= n) outcomes.questionsStored = now;
      if (outcomes.votesStored === null && stored.votes >= n && stored.count >= n) outcomes.votesStored = now;
    }
    if (outcomes.converged === null && outcomes.votesStored !== null) {
      const c = views.converged(stored.votesOf);
      if (c.viewers === n) outcomes.converged = c.lastAt - firstAskAt;
    }
    if (outcomes.webhooks === null) {
      hooks = await ask<WebhookTally>(receiver.child, { count: 'question.created' });
      if (hooks.questions >= n && hooks.distinctIds >= n) outcomes.webhooks = hooks.lastAt - firstAskWall;
    }
    const done = Object.values(outcomes).every((o) => o !== null);
    if (done || performance.now() - settleFrom > target.settleMs) break;
    await sleep(250);
  }
  clearInterval(progress);
  const serverCpu = cpu();

  // The final reading: what is stored now, and whether the webhooks named exactly the stored questions.
  stored = await storedQuestions(gc, scene.eventId, n);
  hooks = await ask<WebhookTally>(receiver.child, { count: 'question.created', questionIds: true });
  const storedIds = new Set(stored.ids);
  const hookedStored = (hooks.questionIds ?? []).filter((id) => storedIds.has(id)).length;
  const convergedNow = views.converged(stored.votesOf);

  await (process.env.BENCH_PROFILE ? server.stop() : server.kill());
  crowd.terminate();

  const settledBy = (at: number | null) =>
    at === null || sendWindowMs === null ? null : Math.max(0, at - sendWindowMs);
  const fig = (at: number | null) =>
    at === null
      ? `not within ${seconds(target.settleMs)} of the last vote`
      : `${seconds(at)} after the first ask (${seconds(settledBy(at)!)} after the last vote)`;
  const errors = [...views.errors].map(([code, count]) => `${code} ×${count}`).join(', ') || 'none';

  console.log(`\n== qa (load average ${load().join(' ')})`);
  console.log(
    `viewers             ${join.joined} joined, ${join.failed} failed, in ${seconds(join.wallMs)} (${options.concurrency} at a time)`,
  );
  for (const f of join.failures) console.log(`  failure: ${f}`);
  console.log(
    `sent                ${asked} questions within ${ms(askedWithinMs)}; ${votesSent} votes, the last ${sendWindowMs === null ? '—' : seconds(sendWindowMs)} after the first ask`,
  );
  console.log(
    `questions stored    ${stored.count} (${stored.distinctAskers} distinct askers, ${stored.duplicates} stored twice or more): ${fig(outcomes.questionsStored)}`,
  );
  console.log(
    `votes stored        ${stored.votes} (${stored.questionsWithOneVote} questions with exactly 1): ${fig(outcomes.votesStored)}`,
  );
  console.log(
    `converged           ${convergedNow.viewers} of ${n} viewers' last tallies equal the stored counts: ${fig(outcomes.converged)}`,
  );
  console.log(
    `broadcast frames    ${views.createdFrames} question.created (${views.viewersWithAllQuestions()} viewers were sent all ${n}; ${views.duplicateCreated} duplicates), ${views.updatedFrames} question.updated (${views.unknownUpdates} for unknown questions); expected ${n * n} each; the last question.created at ${seconds(views.lastCreatedAt - firstAskAt)}`,
  );
  console.log(
    `question.created    ${hooks.requests} webhooks, ${hooks.distinctIds} distinct ids, ${hooks.questions} distinct questions (${hookedStored} of them stored): ${fig(outcomes.webhooks)}`,
  );
  console.log(`gateway errors      ${errors}`);
  console.log(
    `CPU, first ask → settled  ${serverCpu.server.toFixed(0)} % server, ${serverCpu.loader.toFixed(0)} % load generator, ${serverCpu.database.toFixed(0)} % PostgreSQL (% of one core), ${serverCpu.serverSeconds.toFixed(1)} server CPU s`,
  );

  let ok = true;
  const check = (what: string, pass: boolean) => {
    ok &&= pass;
    console.log(`${pass ? 'PASS' : 'FAIL'}  ${what}`);
  };
  console.log('\n-- targets for qa');
  check(`${join.joined} of ${n} joined, ${join.failed} failed (target: all)`, join.joined === n);
  check(
    `${asked} asks and ${votesSent} votes sent, the last ${sendWindowMs === null ? '—' : seconds(sendWindowMs)} after the first ask (target: ${n} and ${n} within ${seconds(target.sendWindowMs)})`,
    asked === n && votesSent === n && sendWindowMs !== null && sendWindowMs <= target.sendWindowMs,
  );
  const within = (at: number | null) => settledBy(at) !== null && settledBy(at)! <= target.settleMs;
  check(
    `${stored.count} questions stored, ${stored.distinctAskers} distinct, ${stored.duplicates} twice (target: each of the ${n} once, within ${seconds(target.settleMs)} of the last vote)`,
    stored.count === n &&
      stored.distinctAskers === n &&
      stored.duplicates === 0 &&
      within(outcomes.questionsStored),
  );
  check(
    `${stored.votes} votes stored, ${stored.questionsWithOneVote} questions with exactly 1 (target: ${n} and ${n}, within ${seconds(target.settleMs)})`,
    stored.votes === n && stored.questionsWithOneVote === n && within(outcomes.votesStored),
  );
  check(
    `${convergedNow.viewers} of ${n} viewers converged on the stored tallies (target: all, within ${seconds(target.settleMs)})`,
    convergedNow.viewers === n && within(outcomes.converged),
  );
  check(
    `question.created: ${hooks.requests} webhooks, ${hooks.distinctIds} distinct ids, ${hooks.questions} distinct questions, ${hookedStored} stored (target: ${n} of each, within ${seconds(target.settleMs)})`,
    hooks.requests === n && hooks.distinctIds === n && hookedStored === n && within(outcomes.webhooks),
  );
  if (outcomes.converged !== null)
    console.log(`info  convergence ${seconds(outcomes.converged)} after the first ask`);
  return ok;
}

interface Stored {
  count: number;
  ids: string[];
  distinctAskers: number;
  duplicates: number;
  votes: number;
  questionsWithOneVote: number;
  /** Asker index → stored votes; -2 for a question not stored (no viewer's view can match it). */
  votesOf: Int32Array;
}

/** The questions as GET /v1/events/{id}/questions has them, by asker (the marker in the text). */
async function storedQuestions(
  gc: ReturnType<typeof createClient>,
  eventId: string,
  n: number,
): Promise<Stored> {
  const { questions } = await gc.questions.list(eventId);
  const votesOf = new Int32Array(n).fill(-2);
  const askers = new Set<number>();
  let duplicates = 0;
  let votes = 0;
  let questionsWithOneVote = 0;
  for (const q of questions) {
    const asker = Number.parseInt(q.text.slice(askMarker.length), 10);
    if (askers.has(asker)) duplicates++;
    askers.add(asker);
    if (asker >= 0 && asker < n) votesOf[asker] = q.votes;
    votes += q.votes;
    if (q.votes === 1) questionsWithOneVote++;
  }
  return {
    count: questions.length,
    ids: questions.map((q) => q.id),
    distinctAskers: askers.size,
    duplicates,
    votes,
    questionsWithOneVote,
    votesOf,
  };
}
