import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';

export const hash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh, empty database on the given server (the real server migrates it on start). */
export async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gc_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A workspace and its API key, inserted directly. */
export async function seedWorkspace(url: string): Promise<{ workspaceId: string; apiKey: string }> {
  const workspaceId = randomUUID();
  const apiKey = `gck_${randomBytes(32).toString('base64url')}`;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query('insert into workspace (id, name, slug) values ($1, $2, $3)', [
    workspaceId,
    'Bench',
    `bench-${workspaceId.slice(0, 8)}`,
  ]);
  await db.query('insert into api_key (id, workspace_id, name, secret_hash) values ($1, $2, $3, $4)', [
    randomUUID(),
    workspaceId,
    'bench',
    hash(apiKey),
  ]);
  await db.end();
  return { workspaceId, apiKey };
}
