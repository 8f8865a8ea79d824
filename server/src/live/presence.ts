import { randomUUID } from 'node:crypto';
import { withTransaction } from '../db/pool';
import { Batcher } from '../lib/batcher';
import type { AppContext } from '../lib/context';
import type { DomainEventInput } from '../lib/domain-events';
import type { Fanout } from './fanout';
import type {
  AudienceCounts,
  PresenceInfo,
  PresenceJoin,
  PresenceStore,
  PresenceTiming,
  SweptEntry,
} from './presence-store';

/** The participant.joined / participant.left fact of a presence change. */
const webhookOf = (
  type: 'participant.joined' | 'participant.left',
  workspaceId: string,
  eventId: string,
  info: PresenceInfo,
  id?: string,
  at?: Date,
): DomainEventInput => ({
  ...(id ? { id } : {}),
  ...(at ? { occurredAt: at } : {}),
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
/**
 * While the process serves a burst, a join group waits this long to fill before it is written. Nobody
 * waits on it (the welcome went out already; presence messages and the webhook follow it), and a group
 * costs six statements whatever its size: in a storm, groups of ~20 became groups of ~80.
 */
const busyGroupLingerMs = 25;

interface Joining {
  workspaceId: string;
  eventId: string;
  info: PresenceInfo;
  /** When the socket opened (the fact's time, not the group's commit: a storm's groups queue). */
  at: Date;
}

type GroupJoin = Joining & PresenceJoin;

/**
 * Participant presence: joined fires on a participant's first connection anywhere and left on their
 * last, as a webhook (participant.joined / participant.left, recorded in the outbox) and, for everyone
 * but viewers, as presence.joined / presence.left to the event's sockets other than viewers. Calls for
 * one participant run one after another in this process, so a quick reconnect cannot overtake a leave.
 *
 * Joins are grouped: those that arrive while earlier groups are being written go together, presence
 * rows and participant.joined outbox rows in ONE transaction. A join storm then costs a commit per
 * group, not per viewer, and a join is never committed without its webhook (nor the other way round).
 * The transaction is on the plain pool: the ORM would add its query building and inline every bound
 * value of the group's JSON as an escaped literal.
 */
export class LivePresence {
  readonly #chains = new Map<string, Promise<unknown>>();
  /**
   * One group in flight at a time: joins arriving meanwhile wait for it and go together. Each group
   * costs six statements whatever its size, so fewer, larger groups are what keeps a storm cheap; a
   * lone join still goes at once.
   */
  readonly #joins = new Batcher<Joining, boolean>(
    (batch) => this.#joinBatch(batch),
    maxGroup,
    1,
    () => (this.ctx.foreground.busy() ? busyGroupLingerMs : 0),
  );
  /**
   * Presence webhooks recorded outside a join group (participant.left, and the participant.joined a
   * sweep finds never announced), grouped the same way: when a crowd leaves at once (the end of a
   * webinar, a process draining) their leaves cost a commit per group, not per viewer, and do not
   * exhaust the connection pool (a leave that cannot get a connection would lose its webhook).
   */
  readonly #outbox = new Batcher<DomainEventInput, void>(
    async (batch) => {
      await withTransaction(this.ctx.pool, (tx) => this.ctx.bus.recordMany(tx, batch));
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

  /**
   * `at` and `leave`'s `at` are the socket's open and close times: the facts attendance is computed
   * from say when a person came and went, not when a busy process got to writing it down.
   */
  join(workspaceId: string, eventId: string, info: PresenceInfo, at = new Date()): Promise<void> {
    return this.#serial(`${eventId}/${info.participantId}`, async () => {
      if (await this.#joins.submit({ workspaceId, eventId, info, at }))
        await this.#tellRoom('participant.joined', eventId, info);
    });
  }

  leave(workspaceId: string, eventId: string, participantId: string, at = new Date()): Promise<void> {
    return this.#serial(`${eventId}/${participantId}`, async () => {
      const info = await this.store.leave(eventId, participantId);
      if (!info) return;
      await this.#outbox.submit(webhookOf('participant.left', workspaceId, eventId, info, undefined, at));
      await this.#tellRoom('participant.left', eventId, info);
    });
  }

  /**
   * Several joins (distinct participants: one participant's calls are serial) in one transaction. A
   * store outside the database is told how it ended: settled, or undone so that the sockets' later
   * leaves find nothing to announce (see welcome: a failed join is not `joined`).
   */
  async #joinBatch(batch: Joining[]): Promise<boolean[]> {
    const joins: GroupJoin[] = batch.map((j) => ({ ...j, webhookId: randomUUID() }));
    const events = [...new Set(joins.map((j) => j.eventId))].map((eventId) => ({
      eventId,
      joins: joins.filter((j) => j.eventId === eventId),
      stored: [] as GroupJoin[],
    }));
    const first = new Set<PresenceJoin>();
    try {
      await withTransaction(this.ctx.pool, async (tx) => {
        for (const e of events) {
          // A joinMany that throws has undone its own part: only those it stored are settled.
          const firsts = await this.store.joinMany(tx, e.eventId, e.joins);
          e.stored = e.joins;
          for (const j of firsts) first.add(j);
        }
        await this.ctx.bus.recordMany(
          tx,
          joins
            .filter((j) => first.has(j))
            .map((j) => webhookOf('participant.joined', j.workspaceId, j.eventId, j.info, j.webhookId, j.at)),
        );
      });
    } catch (err) {
      await this.#settle(events, false);
      throw err;
    }
    await this.#settle(events, true);
    return joins.map((j) => first.has(j));
  }

  /** Failing to settle leaves the marks for a sweep to decide, which asks the database: logged, not thrown. */
  async #settle(events: { eventId: string; stored: GroupJoin[] }[], committed: boolean): Promise<void> {
    await Promise.all(
      events.map((e) =>
        this.store
          .settle(e.eventId, e.stored, committed)
          .catch((err: unknown) => this.ctx.logger.warn({ err, committed }, 'live presence settle failed')),
      ),
    );
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

  /**
   * What a sweep removed (a crashed process's audience), made to agree with the webhooks: a participant
   * whose join was announced and who is gone everywhere gets participant.left (grouped like any). A join
   * the process died before committing was never announced: no left for it, and, if the participant is
   * still present on another process (whose join was not the first), its participant.joined now, with
   * the id the lost one would have had.
   */
  async #sweptAway(gone: SweptEntry[]): Promise<void> {
    const { rows } = await this.ctx.pool.query<{ id: string; workspace_id: string }>(
      'select id, workspace_id from event where id = any($1::uuid[])',
      [[...new Set(gone.map((g) => g.eventId))]],
    );
    const workspaceOf = new Map(rows.map((r) => [r.id, r.workspace_id]));
    const unsettled = gone.flatMap((g) => (g.unsettledWebhookId ? [g.unsettledWebhookId] : []));
    const committed = new Set<string>();
    if (unsettled.length) {
      const { rows: found } = await this.ctx.pool.query<{ id: string }>(
        'select id from domain_event where id = any($1::uuid[])',
        [unsettled],
      );
      for (const r of found) committed.add(r.id);
    }
    const announced = (g: SweptEntry) => !g.unsettledWebhookId || committed.has(g.unsettledWebhookId);
    const known = gone.filter((g) => workspaceOf.has(g.eventId));
    const left = known.filter((g) => g.last && announced(g));
    const unannounced = known.filter((g) => !g.last && !announced(g));
    await Promise.all([
      ...unannounced.map((g) =>
        this.#outbox.submit(
          webhookOf(
            'participant.joined',
            workspaceOf.get(g.eventId)!,
            g.eventId,
            g.info,
            g.unsettledWebhookId,
          ),
        ),
      ),
      ...left.map((g) =>
        this.#outbox.submit(webhookOf('participant.left', workspaceOf.get(g.eventId)!, g.eventId, g.info)),
      ),
    ]);
    for (const g of unannounced) await this.#tellRoom('participant.joined', g.eventId, g.info);
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
