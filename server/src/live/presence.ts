import { Batcher } from '../lib/batcher';
import type { AppContext } from '../lib/context';
import type { DomainEventInput } from '../lib/domain-events';
import type { Fanout } from './fanout';
import type { AudienceCounts, PresenceInfo, PresenceStore, PresenceTiming } from './presence-store';

/** The participant.joined / participant.left fact of a presence change. */
const webhookOf = (
  type: 'participant.joined' | 'participant.left',
  workspaceId: string,
  eventId: string,
  info: PresenceInfo,
): DomainEventInput => ({
  type,
  workspaceId,
  eventId,
  data: {
    participantId: info.participantId,
    ...(info.userId && !info.anonymous ? { userId: info.userId } : {}),
    anonymous: info.anonymous,
    role: info.role,
  },
});

/** At most this many joins, or leaves, are written in one transaction. */
const maxGroup = 200;

interface Joining {
  workspaceId: string;
  eventId: string;
  info: PresenceInfo;
}

/**
 * Participant presence: joined fires on a participant's first connection anywhere and left on their
 * last, as a webhook (participant.joined / participant.left, recorded in the outbox) and, for everyone
 * but viewers, as presence.joined / presence.left to the event's sockets other than viewers. Calls for
 * one participant run one after another in this process, so a quick reconnect cannot overtake a leave.
 *
 * Joins are grouped: those that arrive while earlier groups are being written go together, presence
 * rows and participant.joined outbox rows in ONE transaction. A join storm then costs a commit per
 * group, not per viewer, and a join is never committed without its webhook (nor the other way round).
 */
export class LivePresence {
  readonly #chains = new Map<string, Promise<unknown>>();
  /**
   * One group in flight at a time: joins arriving meanwhile wait for it and go together. Each group
   * costs six statements whatever its size, so fewer, larger groups are what keeps a storm cheap; a
   * lone join still goes at once.
   */
  readonly #joins = new Batcher<Joining, boolean>((batch) => this.#joinBatch(batch), maxGroup, 1);
  /**
   * participant.left outbox rows, grouped the same way: when a crowd leaves at once (the end of a
   * webinar, a process draining) their leaves cost a commit per group, not per viewer, and do not
   * exhaust the connection pool (a leave that cannot get a connection would lose its webhook).
   */
  readonly #lefts = new Batcher<DomainEventInput, void>(
    async (batch) => {
      await this.ctx.orm.em.fork().transactional((tx) => this.ctx.bus.recordMany(tx, batch));
      return batch.map(() => undefined);
    },
    maxGroup,
    1,
  );
  #timer: NodeJS.Timeout | undefined;
  /** The heartbeat and sweep under way, if any: one at a time, and stop() waits for it. */
  #ticking: Promise<void> | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly store: PresenceStore,
    private readonly fanout: Fanout,
    private readonly timing: PresenceTiming,
  ) {}

  start(): void {
    this.#timer = setInterval(() => {
      this.#ticking ??= this.#tick().finally(() => {
        this.#ticking = undefined;
      });
    }, this.timing.heartbeatMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    // A sweep still running would otherwise reach for the database after the process closed its pool.
    await this.#ticking;
    await Promise.allSettled([...this.#chains.values()]);
    await this.store.stop();
  }

  list(eventId: string): Promise<PresenceInfo[]> {
    return this.store.list(eventId);
  }

  page(eventId: string, after: string, limit: number): Promise<PresenceInfo[]> {
    return this.store.page(eventId, after, limit);
  }

  counts(eventId: string): Promise<AudienceCounts> {
    return this.store.counts(eventId);
  }

  join(workspaceId: string, eventId: string, info: PresenceInfo): Promise<void> {
    return this.#serial(`${eventId}/${info.participantId}`, async () => {
      if (await this.#joins.submit({ workspaceId, eventId, info }))
        await this.#tellRoom('participant.joined', eventId, info);
    });
  }

  leave(workspaceId: string, eventId: string, participantId: string): Promise<void> {
    return this.#serial(`${eventId}/${participantId}`, async () => {
      const info = await this.store.leave(eventId, participantId);
      if (!info) return;
      await this.#lefts.submit(webhookOf('participant.left', workspaceId, eventId, info));
      await this.#tellRoom('participant.left', eventId, info);
    });
  }

  /** Several joins (distinct participants: one participant's calls are serial) in one transaction. */
  #joinBatch(batch: Joining[]): Promise<boolean[]> {
    return this.ctx.orm.em.fork().transactional(async (tx) => {
      const first = new Set<Joining>();
      for (const eventId of new Set(batch.map((j) => j.eventId))) {
        const ofEvent = batch.filter((j) => j.eventId === eventId);
        const firsts = new Set(
          await this.store.joinMany(
            tx,
            eventId,
            ofEvent.map((j) => j.info),
          ),
        );
        for (const j of ofEvent) if (firsts.has(j.info)) first.add(j);
      }
      await this.ctx.bus.recordMany(
        tx,
        [...first].map((j) => webhookOf('participant.joined', j.workspaceId, j.eventId, j.info)),
      );
      return batch.map((j) => first.has(j));
    });
  }

  /** presence.joined / presence.left to the room (everyone but viewers). */
  async #tellRoom(
    type: 'participant.joined' | 'participant.left',
    eventId: string,
    info: PresenceInfo,
  ): Promise<void> {
    const { participantId, name, role, anonymous } = info;
    // Viewers are counted (the `audience` message), not announced: announcing each of them to
    // everyone costs N messages per join.
    if (role === 'viewer') return;
    await this.fanout.publish({
      eventId,
      target: { to: 'room' },
      message:
        type === 'participant.joined'
          ? { type: 'presence.joined', participant: { participantId, name, role, anonymous } }
          : { type: 'presence.left', participantId },
    });
  }

  /** Participants whose last entry a sweep removed (a crashed process's audience): their lefts, grouped like any. */
  async #sweptAway(gone: { eventId: string; info: PresenceInfo }[]): Promise<void> {
    const { rows } = await this.ctx.pool.query<{ id: string; workspace_id: string }>(
      'select id, workspace_id from event where id = any($1::uuid[])',
      [[...new Set(gone.map((g) => g.eventId))]],
    );
    const workspaceOf = new Map(rows.map((r) => [r.id, r.workspace_id]));
    const left = gone.filter((g) => workspaceOf.has(g.eventId));
    if (!left.length) return;
    await Promise.all(
      left.map((g) =>
        this.#lefts.submit(webhookOf('participant.left', workspaceOf.get(g.eventId)!, g.eventId, g.info)),
      ),
    );
    for (const g of left) await this.#tellRoom('participant.left', g.eventId, g.info);
  }

  #serial(key: string, fn: () => Promise<void>): Promise<void> {
    const run = (this.#chains.get(key) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => {});
    this.#chains.set(key, tail);
    void tail.then(() => {
      if (this.#chains.get(key) === tail) this.#chains.delete(key);
    });
    return run;
  }

  async #tick(): Promise<void> {
    try {
      await this.store.heartbeat();
      const gone = await this.store.sweep();
      if (gone.length) await this.#sweptAway(gone);
    } catch (err) {
      this.ctx.logger.warn({ err }, 'live presence heartbeat failed');
    }
  }
}
