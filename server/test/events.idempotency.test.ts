import { describe, expect, it } from 'vitest';
import { mailboxOf, signUp } from './support/accounts';
import { eventIn } from './support/events';
import { createWorkspace, type WorkspaceFixture, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
useServerWithWorkspace((started) => {
  ({ t, ws } = started);
});

let n = 0;
const newKey = () => `key-${Date.now()}-${++n}`;

/** The SDK's raw client with extra headers, answering {status, body, headers}. */
const raw = (
  headers: Record<string, string>,
  auth: { apiKey?: string; sessionToken?: string } = { apiKey: ws.apiKey },
) => t.client({ ...auth, headers }).raw;

const eventCount = () =>
  withDb(t.databaseUrl, async (db) =>
    Number(
      (await db.query('select count(*) from event where workspace_id = $1', [ws.workspaceId])).rows[0].count,
    ),
  );

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, with idempotent-replayed: true', async () => {
    const key = newKey();
    const before = await eventCount();
    const first = await raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'Once' });
    const second = await raw({ 'idempotency-key': key }).events.create({ title: 'Once', type: 't' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await eventCount()).toBe(before + 1);
  });

  it('answers 409 idempotency_key_reused for the same key with a different body', async () => {
    const key = newKey();
    await raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'A' });
    const res = await raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'B' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('executes every time without a key', async () => {
    const before = await eventCount();
    await raw({}).events.create({ type: 't', title: 'No key' });
    await raw({}).events.create({ type: 't', title: 'No key' });
    expect(await eventCount()).toBe(before + 2);
  });

  it('scopes keys by caller: another caller’s same key executes anew', async () => {
    const key = newKey();
    const other = await createWorkspace(t.databaseUrl);
    const a = await raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'S' });
    const b = await raw({ 'idempotency-key': key }, { apiKey: other.apiKey }).events.create({
      type: 't',
      title: 'S',
    });
    expect(b.status).toBe(201);
    expect((b.body as { id: string }).id).not.toBe((a.body as { id: string }).id);
  });

  it('scopes keys by path: the same key on another route executes anew', async () => {
    const key = newKey();
    const a = await eventIn(t.client({ apiKey: ws.apiKey }), 'draft');
    const b = await eventIn(t.client({ apiKey: ws.apiKey }), 'draft');
    const first = await raw({ 'idempotency-key': key }).events.publish(a.id);
    const second = await raw({ 'idempotency-key': key }).events.publish(b.id);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays a 4xx answer too', async () => {
    const key = newKey();
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'draft');
    const first = await raw({ 'idempotency-key': key }).events.start(event.id);
    expect(first.status).toBe(409);
    await t.client({ apiKey: ws.apiKey }).events.publish(event.id);
    const second = await raw({ 'idempotency-key': key }).events.start(event.id);
    expect(second.status).toBe(409);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toContain('application/problem+json');
  });

  it('makes a non-idempotent advance safe to retry', async () => {
    const gc = t.client({ apiKey: ws.apiKey });
    const event = await eventIn(gc, 'live', [
      { modality: 'broadcast' },
      { modality: 'meeting' },
      { modality: 'broadcast' },
    ]);
    const key = newKey();
    await raw({ 'idempotency-key': key }).events.advance(event.id, {});
    await raw({ 'idempotency-key': key }).events.advance(event.id, {});
    const read = await gc.events.retrieve(event.id);
    expect(read.phases.map((p) => p.status)).toEqual(['ended', 'active', 'pending']);
  });

  it('works on public routes, scoped by client address: a registration carrying its personal join link is never replayed', async () => {
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'scheduled', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const key = newKey();
    const body = { name: 'Idem', email: 'idem@example.test' };
    const first = await raw({ 'idempotency-key': key }, {}).public.register(event.id, body);
    expect(first.body).toMatchObject({ registered: true, alreadyRegistered: false });
    const again = await raw({ 'idempotency-key': key }, {}).public.register(event.id, body);
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('never stores an answer carrying a one-time secret; a repeat gets 409 conflict instead of a second run', async () => {
    const gc = t.client({ apiKey: ws.apiKey });
    const event = await eventIn(gc, 'scheduled', [{ modality: 'broadcast' }], { visibility: 'public' });
    await t.client().public.register(event.id, { name: 'Sec', email: 'sec@example.test' });
    const emails = await mailboxOf(t, 'sec@example.test');
    const token = new URL(emails[0]!.links[0]!).searchParams.get('token')!;
    const key = newKey();
    const first = await raw({ 'idempotency-key': key }, {}).public.enter(event.id, { token });
    expect(first.status).toBe(200);
    const sessionToken = (first.body as { sessionToken: string }).sessionToken;
    const again = await raw({ 'idempotency-key': key }, {}).public.enter(event.id, { token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'conflict' });
    const stored = await withDb(t.databaseUrl, async (db) =>
      JSON.stringify((await db.query('select * from idempotency_record where key = $1', [key])).rows),
    );
    expect(stored).not.toContain(sessionToken);
  });

  it('refuses a key longer than 255 characters with 400 bad_request', async () => {
    const res = await raw({ 'idempotency-key': 'k'.repeat(256) }).events.create({ type: 't', title: 'Long' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', errors: [{ path: 'headers.idempotency-key' }] });
    const ok = await raw({ 'idempotency-key': 'k'.repeat(255) }).events.create({ type: 't', title: 'Long' });
    expect(ok.status).toBe(201);
  });

  it('never runs concurrent duplicates twice', async () => {
    for (let i = 0; i < 20; i++) {
      const key = newKey();
      const before = await eventCount();
      const answers = await Promise.all(
        [0, 1, 2, 3].map(() => raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'Race' })),
      );
      expect(await eventCount()).toBe(before + 1);
      const ids = new Set(answers.filter((a) => a.status === 201).map((a) => (a.body as { id: string }).id));
      expect(ids.size).toBe(1);
      for (const a of answers) expect([201, 409]).toContain(a.status);
    }
  });

  it('does not store a 5xx answer: the key is released and a retry executes', async () => {
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'scheduled', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const key = newKey();
    const body = { name: 'Five', email: 'five@example.test' };
    // Break the registration table for one request to force a 500.
    await withDb(t.databaseUrl, (db) => db.query('alter table registration rename to registration_broken'));
    let failed: Awaited<ReturnType<ReturnType<typeof raw>['public']['register']>>;
    try {
      failed = await raw({ 'idempotency-key': key }, {}).public.register(event.id, body);
    } finally {
      await withDb(t.databaseUrl, (db) => db.query('alter table registration_broken rename to registration'));
    }
    expect(failed.status).toBe(500);
    const stored = await withDb(
      t.databaseUrl,
      async (db) => (await db.query('select 1 from idempotency_record where key = $1', [key])).rowCount,
    );
    expect(stored).toBe(0);
    const retry = await raw({ 'idempotency-key': key }, {}).public.register(event.id, body);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('takes over a claim abandoned by a request that died without answering', async () => {
    const key = newKey();
    const scope = `key:${ws.apiKeyId} ws:${ws.workspaceId} POST /v1/events`;
    await withDb(t.databaseUrl, (db) =>
      db.query(
        `insert into idempotency_record (scope, key, request_hash, created_at) values ($1, $2, 'x', now() - interval '2 minutes')`,
        [scope, key],
      ),
    );
    const res = await raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'Taken over' });
    expect(res.status).toBe(201);
  });

  it('makes a concurrent duplicate wait for the first answer and replay it', async () => {
    const key = newKey();
    const scope = `key:${ws.apiKeyId} ws:${ws.workspaceId} POST /v1/events`;
    const body = { type: 't', title: 'Waiter' };
    const first = await raw({ 'idempotency-key': key }).events.create(body);
    // Simulate the first request still running: clear its answer, then fill it in shortly.
    const answer = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query(
            'update idempotency_record r set status = null, response_body = null from idempotency_record o where o.scope = r.scope and o.key = r.key and r.scope = $1 and r.key = $2 returning o.status, o.response_body',
            [scope, key],
          )
        ).rows[0],
    );
    setTimeout(() => {
      void withDb(t.databaseUrl, (db) =>
        db.query(
          'update idempotency_record set status = $3, response_body = $4 where scope = $1 and key = $2',
          [scope, key, answer.status, answer.response_body],
        ),
      );
    }, 300);
    const waited = await raw({ 'idempotency-key': key }).events.create(body);
    expect(waited.status).toBe(201);
    expect(waited.body).toEqual(first.body);
    expect(waited.headers.get('idempotent-replayed')).toBe('true');
  });

  it('forgets answers older than 24 hours', async () => {
    const key = newKey();
    const first = await raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'Old' });
    await withDb(t.databaseUrl, (db) =>
      db.query(`update idempotency_record set created_at = now() - interval '25 hours' where key = $1`, [
        key,
      ]),
    );
    const second = await raw({ 'idempotency-key': key }).events.create({ type: 't', title: 'Old' });
    expect(second.status).toBe(201);
    expect((second.body as { id: string }).id).not.toBe((first.body as { id: string }).id);
  });

  it('ignores the header on other methods', async () => {
    const gc = t.client({ apiKey: ws.apiKey });
    const event = await eventIn(gc, 'draft');
    const key = newKey();
    await raw({ 'idempotency-key': key }).events.update(event.id, { title: 'P1' });
    const res = await raw({ 'idempotency-key': key }).events.update(event.id, { title: 'P2' });
    expect((res.body as { title: string }).title).toBe('P2');
  });

  it('scopes keys by workspace: the same key and body sent to another workspace of the account creates there', async () => {
    const owner = await signUp(t, 'two-ws');
    const w2 = await owner.client.workspaces.create({ name: 'Second' });
    const key = newKey();
    const inWorkspace = (workspaceId: string) =>
      raw(
        { 'idempotency-key': key, 'x-workspace-id': workspaceId },
        { sessionToken: owner.sessionToken },
      ).events.create({ type: 't', title: 'Same' });
    const first = await inWorkspace(owner.workspaceId);
    const second = await inWorkspace(w2.id);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    const [e1, e2] = [first.body, second.body] as { id: string; workspaceId: string }[];
    expect(e2!.id).not.toBe(e1!.id);
    expect(e1!.workspaceId).toBe(owner.workspaceId);
    expect(e2!.workspaceId).toBe(w2.id);
    const replay = await inWorkspace(w2.id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((replay.body as { id: string }).id).toBe(e2!.id);
  });

  it('never replays an anonymous gateway token to another anonymous caller on the same address', async () => {
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'live', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const key = newKey();
    const take = () => raw({ 'idempotency-key': key }, {}).gateway.token({ eventId: event.id });
    const first = await take();
    expect(first.status).toBe(200);
    const firstToken = (first.body as { token: string }).token;
    const second = await take();
    expect(JSON.stringify(second.body)).not.toContain(firstToken);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'conflict' });
    const stored = await withDb(t.databaseUrl, async (db) =>
      JSON.stringify((await db.query('select * from idempotency_record where key = $1', [key])).rows),
    );
    expect(stored).not.toContain(firstToken);
  });
});
