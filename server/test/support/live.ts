import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { type EventRole, type LiveServerMessage, liveServerMessageSchema } from '@gathercast/contract';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config';
import { roleEpochOf } from '../../src/gateway/role-epochs';
import type { GatewayClaims } from '../../src/gateway/tokens';
import type { LiveOptions } from '../../src/live/gateway';
import { createLogger } from '../../src/logger';
import { type RunningServer, startServer } from '../../src/server';
import { eventBudgetMs } from './budgets';
import { withDb } from './fixtures';
import { liftedLimits } from './lifted-limits';
import { freePort } from './ports';

/**
 * Presence entries renewed every 200 ms and gone 3 s after the last renewal: a stopped process's entries
 * go quickly, yet a process the busy suite starves for a second (fifteen missed renewals) is not taken
 * for dead, which would let another process count a participant again as first.
 */
export const fastLive: LiveOptions = { presence: { heartbeatMs: 200, ttlMs: 3000 } };

/** A second (or third) server process on an existing database, as a deployment's replica. */
export async function startReplica(
  databaseUrl: string,
  env: Record<string, string | undefined> = {},
  live: LiveOptions = fastLive,
): Promise<RunningServer> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_INSECURE_URLS: 'true',
    ...liftedLimits,
    ...env,
  } as NodeJS.ProcessEnv);
  const sink = new Writable({ write: (_c, _e, cb) => cb() });
  return startServer(config, createLogger(config.logLevel, sink), {}, live);
}

export async function tokenFor(
  server: RunningServer,
  eventId: string,
  claims: Partial<GatewayClaims> & { role: EventRole },
): Promise<string> {
  const userId = claims.userId === undefined ? randomUUID() : claims.userId;
  const anonymous = claims.anonymous ?? false;
  // Minted now: as of the holder's latest role change (the gateway refuses a token from before one).
  const roleEpoch = anonymous || userId === null ? undefined : await roleEpochOf(server.ctx.pool, userId);
  const full: GatewayClaims = {
    eventId,
    participantId: anonymous ? `anon:${randomUUID()}` : `user:${userId}`,
    userId: anonymous ? null : userId,
    name: anonymous ? null : 'Pat',
    anonymous,
    via: anonymous ? 'anonymous' : 'account',
    ...(roleEpoch ? { roleEpoch } : {}),
    ...claims,
    storedRole: claims.storedRole ?? claims.role,
  };
  return (await server.gatewayTokens.sign(full)).token;
}

/** A test's WebSocket client: every message kept in order, waited for by type. */
export class LiveClient {
  readonly messages: LiveServerMessage[] = [];
  /** Server messages that did not match `liveServerMessageSchema`; `close()` fails when there are any. */
  readonly invalid: string[] = [];
  closeCode: number | undefined;
  readonly closed: Promise<number>;
  #cursor = 0;
  #waiters = new Set<() => void>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as LiveServerMessage;
      // Every server message must match the contract exactly as the SDK types it.
      const parsed = liveServerMessageSchema.safeParse(message);
      if (!parsed.success) this.invalid.push(`${JSON.stringify(message)}: ${parsed.error.message}`);
      this.messages.push(message);
      for (const w of this.#waiters) w();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.closeCode = code;
        for (const w of this.#waiters) w();
        resolve(code);
      }),
    );
  }

  /** `query` adds parameters to the URL (a resume: `{ resume, after }`). */
  static connect(
    server: RunningServer,
    token: string,
    query: Record<string, string> = {},
  ): Promise<LiveClient> {
    const params = new URLSearchParams({ token, ...query });
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/v1/live?${params}`);
    const client = new LiveClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }

  /** Connects and waits for the welcome. */
  static async join(
    server: RunningServer,
    token: string,
    query: Record<string, string> = {},
  ): Promise<LiveClient> {
    const client = await LiveClient.connect(server, token, query);
    await client.next('welcome');
    return client;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message of `type` (after the last one returned) matching `match`. */
  async next<T extends LiveServerMessage['type']>(
    type: T,
    match: (m: Extract<LiveServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = eventBudgetMs,
  ): Promise<Extract<LiveServerMessage, { type: T }>> {
    const find = () => {
      for (let i = this.#cursor; i < this.messages.length; i++) {
        const m = this.messages[i]!;
        if (m.type === type && match(m as Extract<LiveServerMessage, { type: T }>)) {
          this.#cursor = i + 1;
          return m as Extract<LiveServerMessage, { type: T }>;
        }
      }
      return undefined;
    };
    const found = find();
    if (found) return found;
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = find();
        if (m) {
          done();
          resolve(m);
        } else if (this.closeCode !== undefined) {
          done();
          reject(
            new Error(
              `socket closed (${this.closeCode}) before ${type}; got ${JSON.stringify(this.messages)}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
      };
      this.#waiters.add(check);
    });
  }

  /** All messages of a type received so far. */
  all<T extends LiveServerMessage['type']>(type: T): Extract<LiveServerMessage, { type: T }>[] {
    return this.messages.filter((m) => m.type === type) as Extract<LiveServerMessage, { type: T }>[];
  }

  async close(): Promise<void> {
    if (this.closeCode === undefined) {
      this.ws.close();
      await this.closed;
    }
    if (this.invalid.length) throw new Error(`messages outside the contract:\n${this.invalid.join('\n')}`);
  }
}

/** The upgrade refusal for a URL: status and problem body. */
export function refusal(
  url: string,
): Promise<{ status: number; body: Record<string, unknown>; type: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => reject(new Error('upgrade accepted')));
    ws.once('error', () => {});
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(body),
          type: String(res.headers['content-type']),
        }),
      );
    });
  });
}

/** Webhook outbox rows (domain events) of one type for an event, oldest first. */
export const recorded = (databaseUrl: string, eventId: string, type: string) =>
  withDb(databaseUrl, async (db) => {
    const { rows } = await db.query<{ payload: Record<string, unknown> }>(
      'select payload from domain_event where event_id = $1 and type = $2 order by occurred_at, id',
      [eventId, type],
    );
    return rows.map((r) => r.payload);
  });

/** Polls `check` until it holds (cross-process effects arrive asynchronously). */
export { eventually } from './wait';
