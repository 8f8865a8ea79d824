import { eventBudgetMs } from './support/budgets';
import { webhookEventTypes } from '@gathercast/contract';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { addJobSql } from '../src/webhooks/queue';
import { webhookSettings } from '../src/webhooks/settings';
import { WebhookWorker } from '../src/webhooks/worker';
import type { Receiver } from './support/receiver';
import type { TestServer } from './support/server';
import { createWorkspaceWithKey, verifyDelivery } from './support/webhook-fixtures';
import { recordEvent, useWebhookTestServer } from './support/webhook-server';
import { eventually, quietFor } from './support/wait';

let t: TestServer;
let rx: Receiver;
let apiKey: string;
let workspaceId: string;
let gc: ReturnType<TestServer['client']>;

useWebhookTestServer(
  async (started) => {
    ({ t, rx } = started);
    ({ apiKey, workspaceId } = await createWorkspaceWithKey(t.databaseUrl));
    gc = t.client({ apiKey });
  },
  { serverEnv: { WEBHOOK_TIMEOUT_MS: '300' } },
);

async function endpoint(name: string, behaviour?: Parameters<Receiver['url']>[1], eventTypes?: string[]) {
  return gc.webhooks.create({ url: rx.url(name, behaviour), eventTypes: eventTypes as never });
}

async function deliveriesOf(id: string) {
  return (await gc.webhooks.listDeliveries(id, {})).deliveries;
}

describe('webhook delivery', () => {
  it('delivers event.published, event.started and event.ended signed, flat, with the documented headers', async () => {
    const ep = await endpoint('lifecycle', undefined, ['event.published', 'event.started', 'event.ended']);
    const eventId = crypto.randomUUID();
    const sent = [];
    for (const type of ['event.published', 'event.started', 'event.ended'] as const) {
      sent.push(await recordEvent(t, { type, workspaceId, eventId }));
    }
    await rx.waitFor(() => rx.to('lifecycle').length === 3, eventBudgetMs, 'three deliveries');
    for (const [i, got] of rx.to('lifecycle').entries()) {
      const body = verifyDelivery(got, [ep.secret]);
      const ev = sent.find((s) => s.id === body.id)!;
      expect(body).toEqual({
        id: ev.id,
        type: ev.type,
        workspaceId,
        eventId,
        occurredAt: ev.occurredAt.toISOString(),
        sequence: expect.any(Number),
      });
      expect(got.headers['x-gc-event-type']).toBe(body.type);
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toMatch(/^Gathercast-Webhooks\//);
      expect(got.headers['x-gc-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(i).toBeLessThan(3);
    }
  });

  it('delivers every event type with its own fields, and only to endpoints that take the type', async () => {
    const all = await endpoint('all-types');
    const endedOnly = await endpoint('ended-only', undefined, ['event.ended']);
    await recordEvent(t, {
      type: 'participant.joined',
      workspaceId,
      data: { participantId: 'anon:1', anonymous: true, role: 'viewer' },
    });
    for (const type of webhookEventTypes.filter((x) => x !== 'participant.joined'))
      await recordEvent(t, { type, workspaceId });
    await rx.waitFor(
      () => rx.to('all-types').length === webhookEventTypes.length,
      eventBudgetMs,
      'all types',
    );
    const joined = rx
      .to('all-types')
      .map((r) => verifyDelivery(r, [all.secret]))
      .find((b) => b.type === 'participant.joined');
    expect(joined).toMatchObject({ participantId: 'anon:1', anonymous: true, role: 'viewer' });
    await rx.waitFor(() => rx.to('ended-only').length === 1, eventBudgetMs, 'ended only');
    await quietFor(300);
    expect(rx.to('ended-only').map((r) => verifyDelivery(r, [endedOnly.secret]).type)).toEqual([
      'event.ended',
    ]);
  });

  it('retries a receiver answering 500 twice then 200: three attempts with one event id', async () => {
    const ep = await endpoint('flaky', (n) => ({ status: n < 2 ? 500 : 200, body: n < 2 ? 'boom' : 'fine' }));
    const ev = await recordEvent(t, { type: 'event.published', workspaceId });
    await rx.waitFor(() => rx.to('flaky').length === 3, eventBudgetMs, 'three attempts');
    const ids = rx.to('flaky').map((r) => verifyDelivery(r, [ep.secret]).id);
    expect(new Set(ids)).toEqual(new Set([ev.id]));
    expect(new Set(rx.to('flaky').map((r) => r.headers['x-gc-event-id']))).toEqual(new Set([ev.id]));
    const log = await eventually(() => deliveriesOf(ep.id), (v) => v[0]?.status === 'succeeded');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ webhookEventId: ev.id, eventType: 'event.published', status: 'succeeded' });
    expect(log[0]!.attempts.map((a) => [a.responseStatus, a.responseBody])).toEqual([
      [500, 'boom'],
      [500, 'boom'],
      [200, 'fine'],
    ]);
    await quietFor(300);
    expect(rx.to('flaky')).toHaveLength(3);
  });

  it('does not retry a 400: one attempt, rejected', async () => {
    const ep = await endpoint('rejecting', () => ({ status: 400, body: 'no thanks' }));
    await recordEvent(t, { type: 'event.started', workspaceId });
    await rx.waitFor(() => rx.to('rejecting').length === 1, eventBudgetMs);
    await quietFor(500);
    expect(rx.to('rejecting')).toHaveLength(1);
    const [d] = await deliveriesOf(ep.id);
    expect(d).toMatchObject({ status: 'rejected', nextAttemptAt: null });
    expect(d!.attempts).toHaveLength(1);
    expect(d!.attempts[0]).toMatchObject({ responseStatus: 400, responseBody: 'no thanks', error: null });
  });

  it('times out a hanging receiver and retries', async () => {
    const ep = await endpoint('hanging', (n) => (n === 0 ? { hang: true } : { status: 204 }));
    await recordEvent(t, { type: 'event.ended', workspaceId });
    await rx.waitFor(() => rx.to('hanging').length === 2, eventBudgetMs);
    const [d] = await eventually(() => deliveriesOf(ep.id), (v) => v[0]?.status === 'succeeded');
    expect(d!.status).toBe('succeeded');
    expect(d!.attempts[0]).toMatchObject({ responseStatus: null });
    expect(d!.attempts[0]!.error).toMatch(/^timeout/);
    expect(d!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(290);
    expect(d!.attempts[1]!.responseStatus).toBe(204);
  });

  it('does not follow redirects: a 302 is a failed attempt and is retried', async () => {
    const ep = await endpoint('redirecting', (n) =>
      n === 0 ? { status: 302, headers: { location: rx.url('redirect-target') } } : { status: 200 },
    );
    await recordEvent(t, { type: 'event.published', workspaceId });
    await rx.waitFor(() => rx.to('redirecting').length === 2, eventBudgetMs);
    expect(rx.to('redirect-target')).toHaveLength(0);
    const [d] = await deliveriesOf(ep.id);
    expect(d!.attempts[0]).toMatchObject({ responseStatus: 302 });
  });

  it('marks a delivery failed once the schedule is exhausted (11 attempts)', async () => {
    const ep = await endpoint('always-500', () => ({ status: 503 }));
    await recordEvent(t, { type: 'event.published', workspaceId });
    await rx.waitFor(() => rx.to('always-500').length === 11, eventBudgetMs);
    const [d] = await eventually(() => deliveriesOf(ep.id), (v) => v[0]?.status === 'failed');
    expect(d).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(d!.attempts).toHaveLength(11);
    await quietFor(300);
    expect(rx.to('always-500')).toHaveLength(11);
  });

  it('a deleted endpoint receives nothing more, not even queued retries', async () => {
    const ep = await endpoint('deleted', () => ({ status: 500 }));
    await recordEvent(t, { type: 'event.published', workspaceId });
    await rx.waitFor(() => rx.to('deleted').length >= 1, eventBudgetMs);
    await gc.webhooks.delete(ep.id);
    const seen = rx.to('deleted').length;
    await recordEvent(t, { type: 'event.published', workspaceId });
    await quietFor(700);
    // At most an attempt already in flight at the moment of the delete.
    expect(rx.to('deleted').length).toBeLessThanOrEqual(seen + 1);
    const after = rx.to('deleted').length;
    await quietFor(500);
    expect(rx.to('deleted').length).toBe(after);
  });

  it('signs with both secrets after rotate-secret, new first', async () => {
    const ep = await endpoint('rotating');
    const rotated = await gc.webhooks.rotateSecret(ep.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(ep.secret);
    await recordEvent(t, { type: 'event.started', workspaceId });
    await rx.waitFor(() => rx.to('rotating').length === 1, eventBudgetMs);
    const got = rx.to('rotating')[0]!;
    expect(String(got.headers['x-gc-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    // A receiver that knows only one of the two secrets accepts the delivery, and so does one holding both.
    expect(verifyDelivery(got, rotated.secret).id).toBe(got.headers['x-gc-event-id']);
    verifyDelivery(got, ep.secret);
    verifyDelivery(got, [rotated.secret, ep.secret]);
    // The new signature comes first: with only it left, the old secret alone no longer verifies.
    const [stamp, newSig, oldSig] = String(got.headers['x-gc-signature']).split(',');
    const only = (sig: string) => ({
      ...got,
      headers: { ...got.headers, 'x-gc-signature': `${stamp},${sig}` },
    });
    verifyDelivery(only(newSig!), rotated.secret);
    verifyDelivery(only(oldSig!), ep.secret);
    expect(() => verifyDelivery(only(newSig!), ep.secret)).toThrow(
      expect.objectContaining({ name: 'WebhookVerificationError', code: 'signature_mismatch' }),
    );
    expect(() => verifyDelivery({ ...got, body: `${got.body} ` }, [rotated.secret, ep.secret])).toThrow(
      expect.objectContaining({ code: 'signature_mismatch' }),
    );
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const ep = await endpoint('gone', () => ({ status: 410 }));
    await recordEvent(t, { type: 'event.published', workspaceId });
    await rx.waitFor(() => rx.to('gone').length === 1, eventBudgetMs);
    const e = await eventually(() => gc.webhooks.retrieve(ep.id), (v) => !v.enabled);
    expect(e).toMatchObject({ enabled: false, disabledReason: 'gone' });
    await recordEvent(t, { type: 'event.published', workspaceId });
    await quietFor(300);
    expect(rx.to('gone')).toHaveLength(1);
    const back = await gc.webhooks.update(ep.id, { enabled: true });
    expect(back).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('disables an endpoint whose attempts have only failed for 3 days', async () => {
    const ep = await endpoint('failing', () => ({ status: 500 }));
    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    await db.query(
      `update webhook_endpoint set failing_since = now() - interval '3 days 1 minute' where id = $1`,
      [ep.id],
    );
    await db.end();
    await recordEvent(t, { type: 'event.published', workspaceId });
    await rx.waitFor(() => rx.to('failing').length === 1, eventBudgetMs);
    const e = await eventually(() => gc.webhooks.retrieve(ep.id), (v) => !v.enabled);
    expect(e).toMatchObject({ enabled: false, disabledReason: 'failing' });
    expect((await gc.webhooks.list()).webhooks.find((w) => w.id === ep.id)).toMatchObject({
      disabledReason: 'failing',
    });
    await quietFor(300);
    expect(rx.to('failing')).toHaveLength(1);
    const [d] = await deliveriesOf(ep.id);
    expect(d!.status).toBe('cancelled');
  });

  it('sends a test event, delivered and logged like any other', async () => {
    const ep = await endpoint('test-send');
    const d = await gc.webhooks.test(ep.id, { type: 'question.created' });
    expect(d).toMatchObject({ endpointId: ep.id, eventType: 'question.created', status: 'pending' });
    await rx.waitFor(() => rx.to('test-send').length === 1, eventBudgetMs);
    const body = verifyDelivery(rx.to('test-send')[0]!, [ep.secret]);
    expect(body).toMatchObject({ id: d.webhookEventId, type: 'question.created', workspaceId });
    expect(typeof body.text).toBe('string');
    const [logged] = await deliveriesOf(ep.id);
    expect(logged!.id).toBe(d.id);
  });

  it('retries a rejected delivery by hand: sent again now, same event id', async () => {
    const ep = await endpoint('manual', (n) => ({ status: n === 0 ? 422 : 200 }));
    const ev = await recordEvent(t, { type: 'event.ended', workspaceId });
    await rx.waitFor(() => rx.to('manual').length === 1, eventBudgetMs);
    const [d] = await eventually(() => deliveriesOf(ep.id), (v) => v[0]?.status === 'rejected');
    const again = await gc.webhooks.retryDelivery(ep.id, d!.id);
    expect(again.status).toBe('pending');
    await rx.waitFor(() => rx.to('manual').length === 2, eventBudgetMs);
    expect(rx.to('manual').map((r) => r.headers['x-gc-event-id'])).toEqual([ev.id, ev.id]);
  });

  it('keeps a manual retry asked for while an attempt is in flight: sent again once that attempt ends', async () => {
    // The first answer (a final 422) comes 250 ms after the request arrives (under the 300 ms timeout):
    // the retry is asked for in that window.
    const ep = await endpoint('in-flight', (n) =>
      n === 0 ? { status: 422, delayMs: 250 } : { status: 200 },
    );
    const ev = await recordEvent(t, { type: 'event.ended', workspaceId });
    await rx.waitFor(() => rx.to('in-flight').length === 1, eventBudgetMs);
    const [d] = await deliveriesOf(ep.id);
    await gc.webhooks.retryDelivery(ep.id, d!.id);
    await rx.waitFor(() => rx.to('in-flight').length === 2, eventBudgetMs);
    expect(rx.to('in-flight').map((r) => r.headers['x-gc-event-id'])).toEqual([ev.id, ev.id]);
    const [settled] = await eventually(() => deliveriesOf(ep.id), (v) => v[0]?.status === 'succeeded');
    expect(settled).toMatchObject({ status: 'succeeded' });
  });

  it('delivers nothing for a change that was rolled back', async () => {
    const ep = await endpoint('rollback');
    const ev = await recordEvent(t, { type: 'event.published', workspaceId }, { rollback: true });
    const kept = await recordEvent(t, { type: 'event.started', workspaceId });
    await rx.waitFor(() => rx.to('rollback').length === 1, eventBudgetMs);
    await quietFor(300);
    expect(rx.to('rollback').map((r) => r.headers['x-gc-event-id'])).toEqual([kept.id]);
    expect((await deliveriesOf(ep.id)).map((d) => d.webhookEventId)).not.toContain(ev.id);
  });

  it('never writes a signing secret to the log', async () => {
    const ep = await endpoint('log-check');
    await gc.webhooks.test(ep.id, {});
    await rx.waitFor(() => rx.to('log-check').length === 1, eventBudgetMs);
    expect(t.logText()).not.toContain(ep.secret);
    expect(t.logText()).not.toMatch(/whsec_[A-Za-z0-9_-]{20,}/);
  });
});

describe('jobs stranded in a dead process (local queue)', () => {
  it('re-queues a pending delivery whose job was locked long ago by a gone worker, not one locked just now', async () => {
    const ep = await endpoint('stranded');
    await recordEvent(t, { type: 'event.published', workspaceId });
    await rx.waitFor(() => rx.to('stranded').length === 1, eventBudgetMs, 'first delivery');

    const db = new pg.Client({ connectionString: t.databaseUrl });
    await db.connect();
    const sweeper = new WebhookWorker(
      t.databaseUrl,
      webhookSettings(t.server.ctx.config),
      t.server.ctx.logger,
    );
    try {
      // A copy of that delivery, pending and overdue, whose job a (dead) process fetched into its
      // local queue: locked, never started, never leased.
      const { rows } = await db.query<{ id: string }>(
        `insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, next_attempt_at)
         select gen_random_uuid(), endpoint_id, workspace_id, webhook_event_id, event_type, body, 'pending', now() - interval '1 minute'
         from webhook_delivery where endpoint_id = $1 limit 1
         returning id`,
        [ep.id],
      );
      const id = rows[0]!.id;
      await db.query(`select ${addJobSql('$1::text', "now() + interval '1 hour'")}`, [id]);
      await db.query(
        `update graphile_worker._private_jobs set locked_at = now(), locked_by = 'gone-worker' where key = $1`,
        [id],
      );
      // Locked just now: a live process's local queue may hold it; left alone.
      expect(await sweeper.sweep()).toBe(0);
      await db.query(
        `update graphile_worker._private_jobs set locked_at = now() - interval '1 minute' where key = $1`,
        [id],
      );
      // Locked longer than the grace: re-queued (by the server's sweeper or this one) and delivered.
      await sweeper.sweep();
      await rx.waitFor(() => rx.to('stranded').length === 2, eventBudgetMs, 'stranded delivery re-sent');
    } finally {
      await sweeper.stop();
      await db.end();
    }
  });
});
