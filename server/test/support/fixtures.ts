import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { hashSecret, newSecret, secretPrefixes } from '../../src/lib/secrets';

export interface WorkspaceFixture {
  workspaceId: string;
  accountId: string;
  accountName: string;
  email: string;
  /** gck_ key of the workspace. */
  apiKey: string;
  apiKeyId: string;
  /** gcs_ account session of the owner. */
  sessionToken: string;
  sessionId: string;
}

/** Runs SQL directly on a test database (fixtures and rows that only later issues create over the API). */
export async function withDb<T>(databaseUrl: string, fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

/**
 * A workspace with an owner account (and its account session) and an API key, inserted directly,
 * so tests do not depend on the identity routes.
 */
export async function createWorkspace(
  databaseUrl: string,
  opts: { name?: string } = {},
): Promise<WorkspaceFixture> {
  const suffix = randomBytes(4).toString('hex');
  const f = {
    workspaceId: randomUUID(),
    accountId: randomUUID(),
    accountName: opts.name ?? `Owner ${suffix}`,
    email: `owner-${suffix}@example.test`,
    apiKey: newSecret(secretPrefixes.apiKey),
    apiKeyId: randomUUID(),
    sessionToken: newSecret(secretPrefixes.accountSession),
    sessionId: randomUUID(),
  };
  await withDb(databaseUrl, async (db) => {
    await db.query('insert into workspace (id, name, slug) values ($1, $2, $3)', [
      f.workspaceId,
      `WS ${suffix}`,
      `ws-${suffix}`,
    ]);
    await db.query('insert into account (id, name) values ($1, $2)', [f.accountId, f.accountName]);
    await db.query('insert into account_email (id, account_id, email, "primary") values ($1, $2, $3, true)', [
      randomUUID(),
      f.accountId,
      f.email,
    ]);
    await db.query(
      `insert into workspace_member (id, workspace_id, account_id, role) values ($1, $2, $3, 'owner')`,
      [randomUUID(), f.workspaceId, f.accountId],
    );
    await db.query('insert into api_key (id, workspace_id, name, secret_hash) values ($1, $2, $3, $4)', [
      f.apiKeyId,
      f.workspaceId,
      'test',
      hashSecret(f.apiKey),
    ]);
    await db.query(
      `insert into session (id, kind, token_hash, account_id, expires_at) values ($1, 'account', $2, $3, now() + interval '1 day')`,
      [f.sessionId, hashSecret(f.sessionToken), f.accountId],
    );
  });
  return f;
}

/** Another account (own session) that is a plain member of no workspace unless `workspaceId` is given. */
export async function createAccount(
  databaseUrl: string,
  opts: { workspaceId?: string; role?: 'owner' | 'admin' | 'member' } = {},
): Promise<{ accountId: string; sessionToken: string }> {
  const accountId = randomUUID();
  const sessionToken = newSecret(secretPrefixes.accountSession);
  await withDb(databaseUrl, async (db) => {
    await db.query('insert into account (id, name) values ($1, $2)', [accountId, 'Someone']);
    if (opts.workspaceId) {
      await db.query(
        'insert into workspace_member (id, workspace_id, account_id, role) values ($1, $2, $3, $4)',
        [randomUUID(), opts.workspaceId, accountId, opts.role ?? 'member'],
      );
    }
    await db.query(
      `insert into session (id, kind, token_hash, account_id, expires_at) values ($1, 'account', $2, $3, now() + interval '1 day')`,
      [randomUUID(), hashSecret(sessionToken), accountId],
    );
  });
  return { accountId, sessionToken };
}
