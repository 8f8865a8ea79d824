import type pg from 'pg';
import type { Logger } from 'pino';
import { Batcher } from '../../lib/batcher';

/** One socket's close: who was connected to which event, from where. */
export interface SeenAddress {
  workspaceId: string;
  eventId: string;
  participantId: string;
  address: string;
}

/** At most this many addresses go in one statement. */
const maxGroup = 500;
/** A group waits this long to fill: nobody waits on the write, and a crowd leaving at once writes fewer, larger groups. */
const lingerMs = 100;

/**
 * The client address each participant last connected from, per event, in table live_client_address: a
 * ban with `clientAddress` of a participant who is no longer connected covers the address they came
 * from (room-control.ts reads it in the ban's transaction), whichever process served them and whether
 * it has restarted since. Written when a socket closes (off the join path: while it is open, a ban
 * takes the socket's own address), in groups; each process flushes its writes when a ban reaches it
 * and fills a ban still without an address from the table (apply-notice.ts). A process that crashes
 * writes nothing for the sockets it held.
 */
export class ClientAddresses {
  readonly #writes: Batcher<SeenAddress, void>;
  readonly #pending = new Set<Promise<void>>();

  constructor(
    pool: pg.Pool,
    private readonly logger: Logger,
  ) {
    this.#writes = new Batcher<SeenAddress, void>(
      async (batch) => {
        await pool.query(
          `insert into live_client_address as a (workspace_id, event_id, participant_id, client_address, seen_at)
           select workspace_id, event_id, participant_id, client_address, now()
             from jsonb_to_recordset($1::jsonb)
               as x(workspace_id uuid, event_id uuid, participant_id text, client_address text)
           on conflict (event_id, participant_id)
           do update set client_address = excluded.client_address, seen_at = excluded.seen_at`,
          [JSON.stringify(latestOf(batch))],
        );
        return batch.map(() => undefined);
      },
      maxGroup,
      1,
      () => lingerMs,
    );
  }

  remember(seen: SeenAddress): void {
    const write = this.#writes
      .submit(seen)
      .catch((err: unknown) => this.logger.warn({ err }, 'live client address not recorded'));
    this.#pending.add(write);
    void write.then(() => this.#pending.delete(write));
  }

  /** The writes under way are done (a ban reads the table next; shutdown, before the pool closes). */
  async flush(): Promise<void> {
    await Promise.all([...this.#pending]);
  }
}

/** One row per participant of an event (an upsert may touch a row once per statement): the latest. */
function latestOf(batch: SeenAddress[]) {
  const latest = new Map<string, SeenAddress>();
  for (const s of batch) latest.set(`${s.eventId}/${s.participantId}`, s);
  return [...latest.values()].map((s) => ({
    workspace_id: s.workspaceId,
    event_id: s.eventId,
    participant_id: s.participantId,
    client_address: s.address,
  }));
}
