import { describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from './support/accounts';
import { withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * A password-reset request does the same work for an address with an account and one without: the
 * same statements in the same order, so its timing cannot tell them apart. (What differs is inside
 * the database: a token row stored and an email queued, or not.)
 */
let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

/** The SQL statements the server's ORM runs while `call` is in flight. */
async function statementsDuring(call: () => Promise<unknown>): Promise<string[]> {
  const connection = t.server.ctx.orm.em.getConnection();
  const execute = connection.execute.bind(connection);
  const seen: string[] = [];
  connection.execute = ((query: unknown, ...rest: unknown[]) => {
    seen.push(typeof query === 'string' ? query : String((query as { sql?: string }).sql ?? query));
    return (execute as (...a: unknown[]) => unknown)(query, ...rest);
  }) as typeof connection.execute;
  try {
    await call();
  } finally {
    connection.execute = execute;
  }
  return seen;
}

const queuedEmailsTo = (address: string) =>
  withDb(t.databaseUrl, async (db) =>
    Number(
      (
        await db.query(
          `select count(*) from graphile_worker._private_jobs j join graphile_worker._private_tasks k on k.id = j.task_id
            where k.identifier = 'email_send' and j.payload->>'to' = $1`,
          [address],
        )
      ).rows[0].count,
    ),
  );

describe('password reset for known and unknown addresses', () => {
  it('runs the same statements in the same order whether or not the address has an account', async () => {
    const person = await signUp(t, 'known');
    const stranger = uniqueEmail('unknown');
    const known = await statementsDuring(() =>
      t.client().accounts.requestPasswordReset({ email: person.email }),
    );
    const unknown = await statementsDuring(() =>
      t.client().accounts.requestPasswordReset({ email: stranger }),
    );
    expect(known.length).toBeGreaterThan(0);
    expect(unknown).toEqual(known);
    const tokens = await withDb(t.databaseUrl, async (db) =>
      Number(
        (
          await db.query("select count(*) from account_token where kind = 'reset' and email = $1", [
            person.email,
          ])
        ).rows[0].count,
      ),
    );
    expect(tokens).toBe(1);
    expect(await queuedEmailsTo(stranger)).toBe(0);
  });
});
