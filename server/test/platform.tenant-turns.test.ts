import { afterEach, describe, expect, it, vi } from 'vitest';
import { TenantTurns, type Turn } from '../src/lib/tenant-turns';
import { apiKeyOf, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

const started = (turn: Turn) => {
  if (!turn.ok) throw new Error(`refused: ${turn.reason}`);
  return turn.end;
};

describe('a tenant’s turns in one process', () => {
  afterEach(() => vi.useRealTimers());

  it('starts up to perTenant requests of a tenant at once', async () => {
    const turns = new TenantTurns({ perTenant: 2, maxWaiting: 10, maxWaitMs: 1000 });
    started(await turns.take('a'));
    started(await turns.take('a'));
    expect(turns.state.get('a')).toEqual({ inProgress: 2, waiting: 0 });
  });

  it('lets the next request of a tenant wait until one of its own ends, first come first served', async () => {
    const turns = new TenantTurns({ perTenant: 1, maxWaiting: 10, maxWaitMs: 1000 });
    const end = started(await turns.take('a'));
    const order: string[] = [];
    const inOrder = (name: string) => (turn: Turn) => {
      order.push(name);
      return turn;
    };
    const second = turns.take('a').then(inOrder('second'));
    const third = turns.take('a').then(inOrder('third'));
    expect(turns.state.get('a')).toEqual({ inProgress: 1, waiting: 2 });
    end();
    started(await second)();
    started(await third)();
    expect(order).toEqual(['second', 'third']);
    expect(turns.state.has('a')).toBe(false);
  });

  it('never makes another tenant wait behind a busy one', async () => {
    const turns = new TenantTurns({ perTenant: 1, maxWaiting: 10, maxWaitMs: 1000 });
    started(await turns.take('a'));
    void turns.take('a');
    expect((await turns.take('b')).ok).toBe(true);
  });

  it('refuses a request that would make the line longer than maxWaiting', async () => {
    const turns = new TenantTurns({ perTenant: 1, maxWaiting: 1, maxWaitMs: 1000 });
    started(await turns.take('a'));
    void turns.take('a');
    expect(await turns.take('a')).toEqual({ ok: false, reason: 'line_full' });
  });

  it('refuses a request that waited maxWaitMs, and takes it out of the line', async () => {
    vi.useFakeTimers();
    const turns = new TenantTurns({ perTenant: 1, maxWaiting: 10, maxWaitMs: 500 });
    started(await turns.take('a'));
    const waiting = turns.take('a');
    vi.advanceTimersByTime(500);
    expect(await waiting).toEqual({ ok: false, reason: 'waited_too_long' });
    expect(turns.state.get('a')).toEqual({ inProgress: 1, waiting: 0 });
  });

  it('counts an ended turn once, however often it is ended', async () => {
    const turns = new TenantTurns({ perTenant: 2, maxWaiting: 10, maxWaitMs: 1000 });
    const end = started(await turns.take('a'));
    started(await turns.take('a'));
    end();
    end();
    expect(turns.state.get('a')).toEqual({ inProgress: 1, waiting: 0 });
  });
});

describe('turns on the management API', () => {
  let oneAtATime: TestServer;
  let noLine: TestServer;
  useTestServer({ API_TENANT_CONCURRENCY: '1', API_TENANT_MAX_WAITING: '1000' }, (started) => {
    oneAtATime = started;
  });
  useTestServer({ API_TENANT_CONCURRENCY: '1', API_TENANT_MAX_WAITING: '0' }, (started) => {
    noLine = started;
  });

  const burst = (base: string, key: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () => fetch(`${base}/v1/events`, { headers: { 'x-api-key': key } })),
    );

  it('answers every request of a burst from one tenant, one at a time', async () => {
    const key = await apiKeyOf(await signUp(oneAtATime));
    const answers = await burst(oneAtATime.url, key, 20);
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
  });

  it('answers 429 rate_limited with Retry-After past the line, and serves another tenant meanwhile', async () => {
    const [a, b] = await Promise.all([apiKeyOf(await signUp(noLine)), apiKeyOf(await signUp(noLine))]);
    const [answersA, [answerB]] = await Promise.all([burst(noLine.url, a, 30), burst(noLine.url, b, 1)]);
    const refused = answersA.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answersA.filter((r) => r.status !== 429).every((r) => r.status === 200)).toBe(true);
    expect(refused[0]!.headers.get('content-type')).toContain('application/problem+json');
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    expect((await refused[0]!.json()).code).toBe('rate_limited');
    expect(answerB!.status).toBe(200);
  });
});
