import type { Modality } from '@gathercast/contract';
import type { Queryable } from '../db/pool';
import { Batcher } from '../lib/batcher';
import type { EventRow } from '../events/mapping';
import { sql } from '../db/sql';

/** The columns of an event row a gateway token needs, with the modality it is issued for. */
export interface TokenEventRow extends Pick<EventRow, 'id' | 'workspace_id' | 'status' | 'visibility'> {
  /**
   * The modality a gateway token is issued for: the active phase's while the event is live, else the
   * first phase's (what a caller joining now, or early, walks into). Null: the event has no phases.
   */
  modality: Modality | null;
}

/** At most this many token requests share one read. */
const maxGroup = 500;

/**
 * The event reads of gateway-token requests, one process-wide. At a webinar's start thousands of
 * viewers ask for a token for the same event within seconds: the requests that arrive while a read is
 * under way wait for it to end and then share the next one (one statement for all their events), so
 * the database sees a read per round trip, not per viewer. A lone request is read at once.
 *
 * Never a cache: every request's answer comes from a read that started after the request arrived,
 * so a token is never issued from a state older than the request (an event ended or made private a
 * moment before is refused).
 */
export class GatewayEventReads {
  readonly #reads = new Batcher<string, TokenEventRow | undefined>((ids) => this.#readGroup(ids), maxGroup, 1);

  constructor(private readonly db: Queryable) {}

  read(eventId: string): Promise<TokenEventRow | undefined> {
    return this.#reads.submit(eventId);
  }

  async #readGroup(eventIds: string[]): Promise<(TokenEventRow | undefined)[]> {
    const rows = await sql<TokenEventRow>(
      this.db,
      `select e.id, e.workspace_id, e.status, e.visibility,
              (select p.modality from phase p where p.event_id = e.id
                order by p.id = e.active_phase_id is true desc, p.position limit 1) as modality
         from event e where e.id = any(?::uuid[])`,
      [[...new Set(eventIds)]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return eventIds.map((id) => byId.get(id));
  }
}
