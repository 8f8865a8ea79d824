import type pg from 'pg';
import { narrowRole } from '../events/roles';
import { withLockedTransaction } from '../db/pool';
import type { LiveEvent, LivePhase } from './event-state';
import { groupIntoTables, pairsOf } from './grouping';
import type { LivePresence } from './presence';
import type { PresenceInfo } from './presence-store';

/** Speed networking sits people in pairs; rotation config has no room size. */
export const rotationTableSize = 2;

export const isTablePhase = (phase: LivePhase | null): phase is LivePhase =>
  phase?.modality === 'breakout' || phase?.modality === 'rotation';

export function tableSize(phase: LivePhase): number {
  if (phase.modality === 'rotation') return rotationTableSize;
  const size = Number(phase.config.roomSize ?? 4);
  return Number.isInteger(size) && size >= 2 ? size : 4;
}

/** The rotation round running at `now` (1-based, capped at the last); breakouts have one round. */
export function currentRound(phase: LivePhase, now = Date.now()): number {
  if (phase.modality !== 'rotation' || !phase.startedAt) return 1;
  const rounds = Number(phase.config.rounds ?? 1);
  const roundMs = Number(phase.config.roundSeconds ?? 60) * 1000;
  return Math.max(1, Math.min(rounds, Math.floor((now - phase.startedAt.getTime()) / roundMs) + 1));
}

/** When the round after `round` starts, or null after the last one. */
export function nextRoundAt(phase: LivePhase, round: number): number | null {
  if (phase.modality !== 'rotation' || !phase.startedAt) return null;
  if (round >= Number(phase.config.rounds ?? 1)) return null;
  return phase.startedAt.getTime() + round * Number(phase.config.roundSeconds ?? 60) * 1000;
}

function eligible(present: PresenceInfo[], phase: LivePhase, participantId: string): boolean {
  const who = present.find((p) => p.participantId === participantId);
  return !!who && narrowRole(who.eventRole, phase.modality) === 'participant';
}

/**
 * Seats in live_table_seat, decided once per (phase, round) under an advisory lock: the first process
 * to ask groups everyone present at that moment; later arrivals join the emptiest table (a new one
 * once all are full), so every process hands out the same tables.
 */
export class LiveTables {
  constructor(
    private readonly pool: pg.Pool,
    private readonly presence: LivePresence,
  ) {}

  /** The table of `participantId` in the phase's current round; null when they get no table. */
  async seat(
    event: LiveEvent,
    phase: LivePhase,
    participantId: string,
    round = currentRound(phase),
    joinedHere: PresenceInfo[] = [],
  ): Promise<number | null> {
    // Read before taking a connection and the lock: with Redis presence this is no database work at
    // all, and with PostgreSQL it must not wait for a pool connection while holding one.
    const stored = await this.presence.list(event.id);
    // Sockets of this process that were welcomed count as present even while their join is still in
    // its write group: a phase that starts a moment after they joined must seat them too.
    const present = [...stored, ...joinedHere.filter((j) => !stored.some((p) => p.participantId === j.participantId))];
    return withLockedTransaction(this.pool, `live-tables:${phase.id}:${round}`, async (client) => {
      let seats = await this.#seats(client, phase.id, round);
      if (!seats.size) seats = await this.#assignRound(client, event, phase, round, present);
      let table = seats.get(participantId) ?? null;
      if (table === null && eligible(present, phase, participantId)) {
        table = this.#emptiest(seats, tableSize(phase));
        await this.#insert(client, event.id, phase.id, round, new Map([[participantId, table]]));
      }
      return table;
    });
  }

  /** How many tables the phase's current round has. */
  async count(phase: LivePhase): Promise<number> {
    const { rows } = await this.pool.query<{ n: number | null }>(
      'select max(table_no) as n from live_table_seat where phase_id = $1 and round = $2',
      [phase.id, currentRound(phase)],
    );
    return rows[0]?.n ?? 0;
  }

  async #seats(client: pg.PoolClient, phaseId: string, round: number): Promise<Map<string, number>> {
    const { rows } = await client.query<{ participant_id: string; table_no: number }>(
      'select participant_id, table_no from live_table_seat where phase_id = $1 and round = $2',
      [phaseId, round],
    );
    return new Map(rows.map((r) => [r.participant_id, r.table_no]));
  }

  async #assignRound(
    client: pg.PoolClient,
    event: LiveEvent,
    phase: LivePhase,
    round: number,
    present: PresenceInfo[],
  ): Promise<Map<string, number>> {
    const ids = present
      .filter((p) => narrowRole(p.eventRole, phase.modality) === 'participant')
      .map((p) => p.participantId)
      .sort();
    const met = new Set<string>();
    for (let earlier = 1; earlier < round; earlier++)
      for (const pair of pairsOf(await this.#seats(client, phase.id, earlier))) met.add(pair);
    const seats = groupIntoTables(ids, tableSize(phase), met);
    await this.#insert(client, event.id, phase.id, round, seats);
    return seats;
  }

  #emptiest(seats: Map<string, number>, size: number): number {
    const counts = new Map<number, number>();
    for (const t of seats.values()) counts.set(t, (counts.get(t) ?? 0) + 1);
    let best = 0;
    let bestCount = Number.POSITIVE_INFINITY;
    for (const [t, n] of [...counts].sort((a, b) => a[0] - b[0]))
      if (n < bestCount) {
        best = t;
        bestCount = n;
      }
    return best === 0 || bestCount >= size ? counts.size + 1 : best;
  }

  async #insert(
    client: pg.PoolClient,
    eventId: string,
    phaseId: string,
    round: number,
    seats: Map<string, number>,
  ) {
    if (!seats.size) return;
    await client.query(
      `insert into live_table_seat (phase_id, event_id, round, participant_id, table_no)
       select $1, $2, $3, s.participant_id, s.table_no
         from unnest($4::text[], $5::int[]) as s(participant_id, table_no)
       on conflict do nothing`,
      [phaseId, eventId, round, [...seats.keys()], [...seats.values()]],
    );
  }
}
