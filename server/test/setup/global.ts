import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { entities } from '../../src/app/entities';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded';
import { migrate, openOrm } from '../../src/db/orm';
import { testRedis } from './redis';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
    /** The Redis of the Redis-backed tests (see ./redis.ts). */
    redisUrl: string;
  }
}

/**
 * One PostgreSQL for the run (DATABASE_URL when set, else an embedded one), and one migrated
 * template database that every test file clones (CREATE DATABASE … TEMPLATE is fast). One Redis for
 * the tests that run the live plane on Redis (REDIS_URL when set, see ./redis.ts); each server keys
 * its Redis entries by its database's name, so the test files share it without meeting.
 */
export default async function setup(project: TestProject) {
  const redis = await testRedis();
  project.provide('redisUrl', redis.url);
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gc-test-pg-'));
    // A throwaway database: no fsync (a crash test kills servers, never this PostgreSQL), and room
    // for every test server's pool at once.
    embedded = await startEmbeddedPostgres(dataDir, pino({ level: 'silent' }), {
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
      max_connections: '400',
    });
    adminUrl = embedded.url;
  }
  const template = `gc_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const templateUrl = withDatabase(adminUrl, template);
  const orm = await openOrm(templateUrl, entities);
  await migrate(orm, templateUrl);
  await orm.close(true);
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    const dbs = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname = $1 or datname like $2`,
      [template, `${template}_%`],
    );
    for (const { datname } of dbs.rows) {
      await admin.query(`drop database if exists ${datname} with (force)`).catch(() => {});
    }
    await admin.end();
    await embedded?.stop();
    await redis.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
