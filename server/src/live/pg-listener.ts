import pg from 'pg';
import type { Logger } from 'pino';

/**
 * One dedicated connection LISTENing on a few channels, reconnecting after a loss. Notifications
 * sent while it was disconnected are lost: the live plane is best-effort there, like presence.
 */
export class PgListener {
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly channels: string[],
    private readonly onNotify: (channel: string, payload: string) => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'gathercast-live-listener',
    });
    client.on('notification', (m) => this.onNotify(m.channel, m.payload ?? ''));
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client));
    await client.connect();
    await client.query(this.channels.map((c) => `listen ${c}`).join('; '));
    if (this.#stopped) {
      await client.end();
      return;
    }
    this.#client = client;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  #lost(client: pg.Client, err?: unknown): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => {});
    if (this.#stopped) return;
    this.logger.warn({ err }, 'live listener lost; reconnecting');
    const again = () => {
      this.#retry = setTimeout(() => {
        this.start().catch((e: unknown) => {
          this.logger.warn({ err: e }, 'live listener reconnect failed');
          again();
        });
      }, 1000);
      this.#retry.unref();
    };
    again();
  }
}
