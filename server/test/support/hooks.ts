import { createClient, type GathercastClient } from '@gathercast/sdk';
import { afterAll, beforeAll } from 'vitest';
import type { RunningServer } from '../../src/server';
import { createTestDatabase } from './database';
import { createWorkspace, type WorkspaceFixture } from './fixtures';
import { startReplica } from './live';
import { newPartner, type Partner } from './partner';
import { testRedisUrl } from './redis';
import { startTestServer, type TestServer } from './server';

/*
 * Shared setup for test files, in the style of useWebhookTestServer (webhook-server.ts): each hook
 * registers a beforeAll and an afterAll where it is called, and hands what it started to `ready`,
 * which runs inside that beforeAll once everything is up.
 */

export interface ServerWithWorkspace {
  t: TestServer;
  ws: WorkspaceFixture;
  /** An SDK client with the workspace's API key. */
  gc: GathercastClient;
  /** An SDK client without credentials. */
  anon: GathercastClient;
}

/** Environment overrides for a test server, as startTestServer takes them (undefined unsets a key). */
export type TestServerEnv = Record<string, string | undefined>;
/**
 * The overrides, or a function that gives them when the server starts: for a value that an earlier
 * beforeAll sets up (a fake SMTP server's URL, another server's database).
 */
export type EnvAtStart = TestServerEnv | (() => TestServerEnv);

/**
 * Starts a test server (with `env`) before the file's (or describe's) tests and closes it after them;
 * `ready` gets the server once it answers.
 */
export function useTestServer(env: EnvAtStart, ready: (t: TestServer) => void | Promise<void>): void {
  let t: TestServer | undefined;
  beforeAll(async () => {
    t = await startTestServer(typeof env === 'function' ? env() : env);
    await ready(t);
  });
  afterAll(() => t?.close());
}

type WorkspaceReady = (started: ServerWithWorkspace) => void | Promise<void>;

/**
 * Starts a test server (with `env`, if given) and a new workspace before the file's (or describe's)
 * tests and closes the server after them; `ready` gets the server, the workspace, a client with its
 * key and an anonymous client.
 */
export function useServerWithWorkspace(ready: WorkspaceReady): void;
export function useServerWithWorkspace(env: EnvAtStart, ready: WorkspaceReady): void;
export function useServerWithWorkspace(...args: [WorkspaceReady] | [EnvAtStart, WorkspaceReady]): void {
  const [env, ready] = args.length === 1 ? [{}, args[0]] : args;
  useTestServer(env, async (t) => {
    const ws = await createWorkspace(t.databaseUrl);
    await ready({ t, ws, gc: t.client({ apiKey: ws.apiKey }), anon: t.client() });
  });
}

/**
 * Starts what useServerWithWorkspace starts, plus a new partner whose public key is registered as a
 * guest integration of the workspace (with the workspace's key), before the tests; closes the server
 * after them.
 */
export function useServerWithGuestPartner(
  ready: (started: ServerWithWorkspace & { partner: Partner }) => void | Promise<void>,
): void {
  useServerWithWorkspace(async (started) => {
    const partner = await newPartner();
    await started.gc.guestIntegrations.create(started.ws.workspaceId, {
      issuer: partner.issuer,
      publicKeyPem: partner.publicKeyPem,
    });
    await ready({ ...started, partner });
  });
}

/**
 * Starts a test server, a replica process on its database (startReplica) and a new workspace before
 * the tests; `ready` gets both processes and a client for the test server with the workspace's key.
 * After the tests it closes the replica, then the test server.
 */
export function useServerAndReplica(
  ready: (started: { t: TestServer; replica: RunningServer; gc: GathercastClient }) => void | Promise<void>,
): void {
  let t: TestServer | undefined;
  let replica: RunningServer | undefined;
  beforeAll(async () => {
    t = await startTestServer();
    replica = await startReplica(t.databaseUrl);
    const gc = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    await ready({ t, replica, gc });
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
  });
}

/** The two live backends for `describe.each`: PostgreSQL alone, and with Redis (REDIS_URL) beside it. */
export const liveBackends: [backend: string, env: Record<string, string>][] = [
  ['PostgreSQL', {}],
  ['Redis', { REDIS_URL: testRedisUrl() }],
];

/**
 * Creates a fresh test database and starts two server processes on it (startReplica, both with
 * `env`) and a new workspace before the tests; `ready` gets both processes, the database and a
 * client for the first process (`a`) with the workspace's key. Both processes are closed after the
 * tests.
 */
export function useTwoProcesses(
  env: Record<string, string>,
  ready: (started: {
    a: RunningServer;
    b: RunningServer;
    databaseUrl: string;
    gc: GathercastClient;
  }) => void | Promise<void>,
): void {
  let a: RunningServer | undefined;
  let b: RunningServer | undefined;
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase();
    [a, b] = await Promise.all([startReplica(databaseUrl, env), startReplica(databaseUrl, env)]);
    const gc = createClient({ baseUrl: a.url, apiKey: (await createWorkspace(databaseUrl)).apiKey });
    await ready({ a, b, databaseUrl, gc });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });
}
