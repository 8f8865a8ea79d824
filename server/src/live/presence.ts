import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../lib/context';
import { Batcher } from '../webhooks/batcher';
import type { Fanout } from './fanout';
import type { AudienceCounts, PresenceInfo, PresenceStore, PresenceTiming } from './presence-store';

/** At most this many joins are written in one transaction. */
const maxJoinBatch = 200;

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
  readonly #joins = new Batcher<Joining, boolean>((batch) => this.#joinBatch(batch), maxJoinBatch, 2);
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly store: PresenceStore,
    private readonly fanout: Fanout,
    private readonly timing: PresenceTiming,
  ) {}

  start(): void {
    this.#timer = setInterval(() => void this.#tick(), this.timing.heartbeatMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
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
      if (await this.#joins.submit({ workspaceId, eventId, info })) await this.#tellRoom('participant.joined', eventId, info);
    });
  }

  leave(workspaceId: string, eventId: string, participantId: string): Promise<void> {
    return this.#serial(`${eventId}/${participantId}`, async () => {
      const info = await this.store.leave(eventId, participantId);
      if (info) await this.#announce('participant.left', workspaceId, eventId, info);
    });
  }

  /** Several joins (distinct participants: one participant's calls are serial) in one transaction. */
  #joinBatch(batch: Joining[]): Promise<boolean[]> {
    return this.ctx.orm.em.fork().transactional(async (tx) => {
      const first = new Set<Joining>();
      for (const eventId of new Set(batch.map((j) => j.eventId))) {
        const ofEvent = batch.filter((j) => j.eventId === eventId);
        const firsts = new Set(await this.store.joinMany(tx, eventId, ofEvent.map((j) => j.info)));
        for (const j of ofEvent) if (firsts.has(j.info)) first.add(j);
      }
      for (const j of first) await this.#record(tx, 'participant.joined', j.workspaceId, j.eventId, j.info);
      return batch.map((j) => first.has(j));
    });
  }

  async #announce(
    type: 'participant.joined' | 'participant.left',
    workspaceId: string,
    eventId: string,
    info: PresenceInfo,
  ): Promise<void> {
    await this.ctx.orm.em.fork().transactional((tx) => this.#record(tx, type, workspaceId, eventId, info));
    await this.#tellRoom(type, eventId, info);
  }

  async #record(
    tx: EntityManager,
    type: 'participant.joined' | 'participant.left',
    workspaceId: string,
    eventId: string,
    info: PresenceInfo,
  ): Promise<void> {
    await this.ctx.bus.record(tx, {
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
  }

  /** presence.joined / presence.left to the room (everyone but viewers). */
  async #tellRoom(type: 'participant.joined' | 'participant.left', eventId: string, info: PresenceInfo): Promise<void> {
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
    if (this.#ticking) return;
    this.#ticking = true;
    try {
      await this.store.heartbeat();
      for (const { eventId, info } of await this.store.sweep()) {
        const { rows } = await this.ctx.pool.query<{ workspace_id: string }>(
          'select workspace_id from event where id = $1',
          [eventId],
        );
        if (rows[0]) await this.#announce('participant.left', rows[0].workspace_id, eventId, info);
      }
    } catch (err) {
      this.ctx.logger.warn({ err }, 'live presence heartbeat failed');
    } finally {
      this.#ticking = false;
    }
  }
}
