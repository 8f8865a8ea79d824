import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { retentionRules, retentionTask, retentionWindows } from '../src/db/retention';
import { emailTask } from '../src/email/queue';
import { signUp } from './support/accounts';
import { createWorkspace, withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';
import { eventually } from './support/wait';

/**
 * One scheduled retention job keeps every growing table within its window: rows aged past it (their
 * timestamps moved back) go, rows inside it stay.
 */
let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

const day = 24 * 3600;

/** Inserts one row per purged table; `age` seconds back from now for its retention clock. */
async function rowsAged(
  db: pg.Client,
  age: number,
  mark: string,
  endpoint: { id: string; workspaceId: string; eventId: string },
) {
  const at = `now() - make_interval(secs => ${age})`;
  const ws = endpoint.workspaceId;
  await db.query(
    `insert into idempotency_record (scope, key, request_hash, created_at) values ($1, $1, 'h', ${at})`,
    [mark],
  );
  const delivered = randomUUID();
  await db.query(
    `insert into webhook_delivery (id, endpoint_id, workspace_id, webhook_event_id, event_type, body, status, updated_at)
     values ($1, $2, $3, $1, $4, '{}', 'succeeded', ${at}), ($5, $2, $3, $5, $4, '{}', 'pending', ${at})`,
    [delivered, endpoint.id, ws, mark, randomUUID()],
  );
  await db.query(
    `insert into webhook_attempt (id, delivery_id, attempted_at, duration_ms) values ($1, $2, ${at}, 1)`,
    [randomUUID(), delivered],
  );
  await db.query(
    `insert into domain_event (id, type, workspace_id, payload, occurred_at) values ($1, $2, $3, '{}', ${at})`,
    [randomUUID(), mark, ws],
  );
  await db.query(
    `insert into idp_login (state_hash, code_verifier, nonce, return_to, expires_at) values ($1, 'v', 'n', '/', ${at})`,
    [mark],
  );
  await db.query(`insert into live_history (event_id, seq, payload, created_at) values ($1, 1, $2, ${at})`, [
    randomUUID(),
    mark,
  ]);
  await db.query(`insert into live_message (id, payload, created_at) values ($1, $2, ${at})`, [
    randomUUID(),
    mark,
  ]);
  await db.query(
    `insert into live_client_address (workspace_id, event_id, participant_id, client_address, seen_at)
     values ($1, $2, $3, '203.0.113.7', ${at})`,
    [ws, endpoint.eventId, mark],
  );
  // An email that failed all its attempts, and one still being retried (never purged, however old);
  // both due tomorrow, so this test's worker leaves them alone.
  for (const attempts of ['max_attempts', '3']) {
    const job = await db.query(
      `select (graphile_worker.add_job($1, json_build_object('mark', $2::text), run_at := now() + interval '1 day')).id`,
      [emailTask, mark],
    );
    await db.query(
      `update graphile_worker._private_jobs set attempts = ${attempts}, last_error = 'mail server refused', updated_at = ${at} where id = $1`,
      [job.rows[0].id],
    );
  }
  await db.query(
    `insert into rate_limit (key, points, expire) values ($1, 1, (extract(epoch from ${at}) * 1000)::bigint)`,
    [mark],
  );
}

/** How many rows carrying `mark` (or belonging to the account) each table still holds. */
async function remaining(db: pg.Client, mark: string, accountId: string) {
  const count = async (text: string, params: unknown[]) =>
    Number((await db.query(text, params)).rows[0].count);
  return {
    idempotency_record: await count('select count(*) from idempotency_record where key = $1', [mark]),
    webhook_delivery: await count(
      "select count(*) from webhook_delivery where event_type = $1 and status = 'succeeded'",
      [mark],
    ),
    pending_webhook_delivery: await count(
      "select count(*) from webhook_delivery where event_type = $1 and status = 'pending'",
      [mark],
    ),
    webhook_attempt: await count(
      'select count(*) from webhook_attempt a join webhook_delivery d on d.id = a.delivery_id where d.event_type = $1',
      [mark],
    ),
    domain_event: await count('select count(*) from domain_event where type = $1', [mark]),
    idp_login: await count('select count(*) from idp_login where state_hash = $1', [mark]),
    live_history: await count('select count(*) from live_history where payload = $1', [mark]),
    live_message: await count('select count(*) from live_message where payload = $1', [mark]),
    live_client_address: await count('select count(*) from live_client_address where participant_id = $1', [
      mark,
    ]),
    rate_limit: await count('select count(*) from rate_limit where key = $1', [mark]),
    failed_email: await count(
      "select count(*) from graphile_worker._private_jobs where payload->>'mark' = $1 and attempts >= max_attempts",
      [mark],
    ),
    retrying_email: await count(
      "select count(*) from graphile_worker._private_jobs where payload->>'mark' = $1 and attempts < max_attempts",
      [mark],
    ),
    session: await count('select count(*) from session where account_id = $1', [accountId]),
    account_token: await count('select count(*) from account_token where account_id = $1', [accountId]),
  };
}

/** Runs the retention task now (as its schedule would) and waits until the worker has finished it. */
async function runRetention(db: pg.Client) {
  const { rows } = await db.query('select (graphile_worker.add_job($1)).id as id', [retentionTask]);
  const id = rows[0].id;
  const job = await eventually(
    async () =>
      (
        await db.query<{ last_error: string | null }>(
          'select attempts, last_error from graphile_worker.jobs where id = $1',
          [id],
        )
      ).rows[0],
    (left) => left === undefined || Boolean(left.last_error),
  );
  if (job?.last_error) throw new Error(`retention job failed: ${job.last_error}`);
  expect(job, 'the retention job finished').toBeUndefined();
}

describe('retention', () => {
  it('is scheduled once, as a cron job of the shared job queue', async () => {
    const known = await withDb(t.databaseUrl, async (db) =>
      (await db.query('select identifier from graphile_worker._private_known_crontabs')).rows.map(
        (r) => r.identifier,
      ),
    );
    expect(known).toContain(retentionTask);
  });

  it('purges rows past their window and keeps rows inside it, in every table of the list', async () => {
    const old = await signUp(t, 'old');
    const fresh = await signUp(t, 'fresh');
    const ws = await createWorkspace(t.databaseUrl);
    // An endpoint that never receives: the test's deliveries are written directly, aged, and never attempted.
    const gc = t.client({ apiKey: ws.apiKey });
    const ep = await gc.webhooks.create({ url: 'http://127.0.0.1:9/never', eventTypes: ['event.published'] });
    const event = await gc.events.create({ type: 'webinar', title: 'Retention' });
    const endpoint = { id: ep.id, workspaceId: ws.workspaceId, eventId: event.id };
    const oldMark = `old-${randomUUID()}`;
    const freshMark = `fresh-${randomUUID()}`;
    await withDb(t.databaseUrl, async (db) => {
      await rowsAged(db, 400 * day, oldMark, endpoint);
      await rowsAged(db, 5, freshMark, endpoint);
      // Signup left a session and a verification token: the old account's stopped working long ago.
      await db.query(`update session set expires_at = now() - interval '400 days' where account_id = $1`, [
        old.accountId,
      ]);
      await db.query(
        `update account_token set expires_at = now() - interval '400 days' where account_id = $1`,
        [old.accountId],
      );
      await runRetention(db);
      const gone = await remaining(db, oldMark, old.accountId);
      const kept = await remaining(db, freshMark, fresh.accountId);
      const tables = retentionRules.map((r) => r.table);
      for (const table of tables) {
        expect(gone[table as keyof typeof gone], `${table} past its window`).toBe(0);
        expect(kept[table as keyof typeof kept], `${table} inside its window`).toBeGreaterThan(0);
      }
      // A pending delivery is never purged, however old; nor is an email that still has attempts left.
      expect(gone.pending_webhook_delivery).toBe(1);
      expect(gone.retrying_email).toBe(1);
      // Emails that failed every attempt are among the purged tables (graphile-worker never drops them itself).
      expect(tables).toContain('failed_email');
    });
  });

  it('takes its windows from RETENTION and refuses an unknown table', () => {
    const windows = retentionWindows('domain_event=90d,idempotency_record=36h');
    expect(windows.find((r) => r.table === 'domain_event')!.windowSeconds).toBe(90 * day);
    expect(windows.find((r) => r.table === 'idempotency_record')!.windowSeconds).toBe(36 * 3600);
    expect(() => retentionWindows('nope=1d')).toThrow(/unknown table/);
  });
});
