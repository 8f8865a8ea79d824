import { liveCloseCodes } from '@gathercast/contract';
import type { Logger } from 'pino';
import type { LiveConnection } from './connection';
import { type LiveEvent, type LivePhase, loadLiveEvent, roleIn } from './event-state';
import type { LiveDeps } from './deps';
import { phaseGrant, subjectOf } from './media';
import { PgListener } from './pg-listener';
import { currentRound, isTablePhase, nextRoundAt } from './tables';

/** Notified by the trigger of migration LivePlane whenever an event's status or active phase changes. */
const lifecycleChannel = 'gc_live_lifecycle';

/**
 * Lifecycle changes reach the sockets from the database, whichever process (or tool) made them:
 * `phase.changed` with each socket's new grant, tables at the start of a breakout or rotation (and
 * at each rotation round), `event.ended` and a close when the event ends.
 */
export class PhaseChanges {
  readonly #listener: PgListener;
  readonly #rotations = new Map<string, NodeJS.Timeout>();
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly gw: LiveDeps,
    databaseUrl: string,
    private readonly forget: (eventId: string) => void,
  ) {
    this.#listener = new PgListener(
      databaseUrl,
      [lifecycleChannel],
      (_c, payload) => {
        // One change after another, in the order the database committed them.
        this.#queue = this.#queue
          .then(() => this.#changed(payload))
          .catch((err: unknown) => this.#log.warn({ err }, 'phase change not delivered'));
      },
      gw.ctx.logger,
    );
  }

  get #log(): Logger {
    return this.gw.ctx.logger;
  }

  start(): Promise<void> {
    return this.#listener.start();
  }

  async stop(): Promise<void> {
    for (const t of this.#rotations.values()) clearTimeout(t);
    this.#rotations.clear();
    await this.#listener.stop();
    await this.#queue;
  }

  async #changed(payload: string): Promise<void> {
    const { eventId } = JSON.parse(payload) as { eventId: string };
    this.forget(eventId);
    clearTimeout(this.#rotations.get(eventId));
    this.#rotations.delete(eventId);
    const conns = this.gw.local(eventId);
    if (!conns.length) return;
    const event = await loadLiveEvent(this.gw.ctx.pool, eventId);
    if (!event || event.status === 'ended') {
      for (const conn of conns) {
        conn.send({ type: 'event.ended' });
        conn.close(liveCloseCodes.eventEnded, 'event ended');
      }
      return;
    }
    const modality = event.activePhase?.modality ?? null;
    for (const conn of conns) {
      conn.seat = null;
      if (conn.lobby) {
        conn.send({
          type: 'phase.changed',
          eventStatus: event.status,
          activePhaseId: event.activePhase?.id ?? null,
          media: null,
        });
        continue;
      }
      conn.role = roleIn(event, conn.claims.storedRole);
      const media = await phaseGrant(this.gw.ctx.config, subjectOf(conn), modality);
      conn.send({
        type: 'phase.changed',
        eventStatus: event.status,
        activePhaseId: event.activePhase?.id ?? null,
        media,
      });
    }
    const phase = event.activePhase;
    if (isTablePhase(phase)) {
      await this.seatAll(event, phase, conns);
      this.scheduleRotation(event);
    }
  }

  /** Seats the given connections' participants for the current round and tells them their table. */
  async seatAll(
    event: LiveEvent,
    phase: LivePhase,
    conns: LiveConnection[],
    round = currentRound(phase),
  ): Promise<void> {
    const joinedHere = this.gw
      .local(event.id)
      .filter((c) => c.joined && !c.lobby && !c.closed)
      .map((c) => c.presenceInfo());
    for (const conn of conns) {
      if (conn.lobby || !conn.joined || conn.role !== 'participant' || conn.closed) continue;
      const table = await this.gw.tables.seat(event, phase, conn.participantId, round, joinedHere);
      // Each round is announced, even when the table number stays: the people at it change.
      const seat = `${phase.id}/${round}/${table}`;
      if (table === null || seat === conn.seat) continue;
      conn.seat = seat;
      const media = await phaseGrant(this.gw.ctx.config, subjectOf(conn), phase.modality, table);
      conn.send({ type: 'table.assigned', table, room: media.room!, media });
    }
  }

  /** One timer per event with local sockets in a rotation: regroup at each round boundary. */
  scheduleRotation(event: LiveEvent): void {
    const phase = event.activePhase;
    if (phase?.modality !== 'rotation' || this.#rotations.has(event.id)) return;
    const round = currentRound(phase);
    const at = nextRoundAt(phase, round);
    if (at === null) return;
    const timer = setTimeout(
      () => {
        this.#rotations.delete(event.id);
        this.#queue = this.#queue
          .then(async () => {
            const fresh = await loadLiveEvent(this.gw.ctx.pool, event.id);
            if (fresh?.activePhase?.id !== phase.id) return;
            await this.seatAll(fresh, fresh.activePhase, this.gw.local(event.id), round + 1);
            this.scheduleRotation(fresh);
          })
          .catch((err: unknown) => this.#log.warn({ err }, 'rotation round not delivered'));
      },
      Math.max(0, at - Date.now()) + 50,
    );
    timer.unref();
    this.#rotations.set(event.id, timer);
  }
}
