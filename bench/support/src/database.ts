// The database a bench runs on: a scratch database beside BENCH_DATABASE_URL's (or DATABASE_URL's),
// else one on an embedded PostgreSQL in a temporary directory. Both are dropped/removed at the end.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../server/src/db/embedded';
import { createLogger } from '../../../server/src/logger';
import { onStop } from './stops';

export interface Postgres {
  /** A URL to create databases with. */
  adminUrl: string;
  /** What it is, for the figures' heading. */
  kind: string;
}

let started: Promise<Postgres> | undefined;

/** The PostgreSQL server of this run (started once; an embedded one is stopped and removed at the end). */
export function startPostgres(): Promise<Postgres> {
  started ??= (async () => {
    const given = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
    if (given) return { adminUrl: given, kind: `PostgreSQL at ${new URL(given).host}` };
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gc-bench-'));
    onStop(async () => rmSync(dataDir, { recursive: true, force: true }));
    const quiet = new Writable({ write: (_c, _e, cb) => cb() });
    const embedded = await startEmbeddedPostgres(dataDir, createLogger('warn', quiet));
    onStop(() => embedded.stop());
    return { adminUrl: embedded.url, kind: 'embedded PostgreSQL' };
  })();
  return started;
}

export function withDatabase(url: string, name: string): string {
  return Object.assign(new URL(url), { pathname: `/${name}` }).toString();
}

export interface ScratchDatabase {
  url: string;
  name: string;
  adminUrl: string;
}

/** A fresh, empty database for one run (the server migrates it on start), dropped at the end. */
export async function freshDatabase(adminUrl?: string): Promise<ScratchDatabase> {
  const admin = adminUrl ?? (await startPostgres()).adminUrl;
  const name = `gc_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(admin, `create database ${name}`);
  onStop(() => adminQuery(admin, `drop database if exists ${name} with (force)`));
  return { url: withDatabase(admin, name), name, adminUrl: admin };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
