import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import type { CredentialCache } from '../lib/credential-cache';
import type { Queryable } from './pool';

/** Notified by the triggers of migration CredentialChanges, and by `propagated()` barriers. */
const changesChannel = 'gc_credentials';
const acksChannel = 'gc_credentials_ack';
const barrierPrefix = 'barrier:';
/** How a process finds the other processes' listeners: their connections in pg_stat_activity. */
export const listenerApplicationName = 'gathercast-credential-listener';

export interface CredentialChangesOptions {
  /** How often the listener proves itself, renewing the cache's lease (which must be longer). */
  heartbeatMs: number;
  /** Allowance for scheduling delays between a heartbeat and the database's notification delivery. */
  marginMs: number;
}

export const defaultCredentialChangesOptions: CredentialChangesOptions = { heartbeatMs: 1000, marginMs: 1000 };

/**
 * Keeps this process's credential cache honest: one dedicated connection LISTENs for credential
 * changes (flushing the cache on each), renews the cache's lease with a heartbeat, and acknowledges
 * other processes' barriers. `propagated()` is the barrier a revoking request awaits.
 */
export class CredentialChanges {
  #client: pg.Client | undefined;
  #pid: number | undefined;
  #connecting: Promise<void> | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #stopped = false;
  readonly #pending = new Map<string, { waiting: Set<number>; finish: () => void }>();

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: CredentialCache,
    private readonly pool: Queryable,
    private readonly logger: Logger,
    private readonly options: CredentialChangesOptions = defaultCredentialChangesOptions,
  ) {}

  async start(): Promise<void> {
    await this.#connect();
    this.#heartbeat = setInterval(() => void this.#beat(), this.options.heartbeatMs);
    this.#heartbeat.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    for (const pending of this.#pending.values()) pending.finish();
    const client = this.#client;
    this.#client = undefined;
    this.cache.dropLease();
    await client?.end().catch(() => {});
  }

  /**
   * Call after committing a change that withdraws or alters a credential: resolves once every other
   * process has flushed its cache, or has stopped serving from it because its lease ran out.
   */
  async propagated(): Promise<void> {
    this.cache.flush();
    if (this.#stopped) return;
    const waiting = await this.#otherListeners();
    if (!waiting.size) return;
    const id = randomUUID();
    await new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(deadline);
        clearInterval(poll);
        this.#pending.delete(id);
        resolve();
      };
      this.#pending.set(id, { waiting, finish });
      // Whoever has not acknowledged by then has lost its lease (every process has the same) and serves nothing cached.
      const deadline = setTimeout(finish, this.cache.leaseMs + this.options.marginMs);
      // A process that exits never acknowledges: stop waiting for listeners that are gone.
      const poll = setInterval(() => {
        this.#otherListeners()
          .then((live) => {
            for (const pid of waiting) if (!live.has(pid)) waiting.delete(pid);
            if (!waiting.size) finish();
          })
          .catch(() => {});
      }, 250);
      this.pool.query('select pg_notify($1, $2)', [changesChannel, barrierPrefix + id]).catch((err: unknown) => {
        this.logger.warn({ err }, 'credential barrier not sent; waiting for the other processes’ leases');
      });
    });
  }

  async #otherListeners(): Promise<Set<number>> {
    const { rows } = await this.pool.query<{ pid: number }>({
      name: 'credential_listeners',
      text: `select pid from pg_stat_activity
              where application_name = $1 and datname = current_database() and pid <> $2`,
      values: [listenerApplicationName, this.#pid ?? 0],
    });
    return new Set(rows.map((r) => r.pid));
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: listenerApplicationName });
    client.on('notification', (message) => this.#onNotification(client, message));
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client));
    await client.connect();
    await client.query(`listen ${changesChannel}; listen ${acksChannel}`);
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    if (this.#stopped) {
      await client.end();
      return;
    }
    this.#client = client;
    this.#pid = rows[0]!.pid;
    // Anything cached before this connection listened may have missed a change.
    this.cache.flush();
    await this.#beat();
  }

  async #beat(): Promise<void> {
    if (this.#stopped) return;
    const client = this.#client;
    if (!client) {
      this.#connecting ??= this.#connect()
        .catch((err: unknown) => this.logger.warn({ err }, 'credential listener reconnect failed; cache off'))
        .finally(() => {
          this.#connecting = undefined;
        });
      return;
    }
    // Taken before the query is sent: PostgreSQL delivers every notification committed before the
    // query arrives ahead of its answer, so the answer proves nothing was missed up to this moment.
    const provenAt = performance.now();
    try {
      await client.query('select 1');
      if (this.#client === client) this.cache.renewLease(provenAt);
    } catch (err) {
      this.#lost(client, err);
    }
  }

  #onNotification(client: pg.Client, { channel, payload = '' }: pg.Notification): void {
    if (channel === changesChannel) {
      this.cache.flush();
      if (payload.startsWith(barrierPrefix)) {
        client.query('select pg_notify($1, $2)', [acksChannel, `${payload.slice(barrierPrefix.length)}:${this.#pid}`]).catch(() => {});
      }
    } else if (channel === acksChannel) {
      const [id, pid] = payload.split(':');
      const pending = this.#pending.get(id ?? '');
      if (!pending) return;
      pending.waiting.delete(Number(pid));
      if (!pending.waiting.size) pending.finish();
    }
  }

  #lost(client: pg.Client, err?: unknown): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#pid = undefined;
    this.cache.dropLease();
    if (!this.#stopped) this.logger.warn({ err }, 'credential listener lost; cache off until it reconnects');
    client.end().catch(() => {});
  }
}
