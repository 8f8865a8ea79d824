import type { Logger } from 'pino';
import { connectRedis, type RedisClient } from '../../lib/redis';
import {
  type AudienceCounts,
  noAudience,
  type PresenceInfo,
  type PresenceJoin,
  type PresenceStore,
  type PresenceTiming,
  type SweptEntry,
} from '../presence-store';
import { joinScript, leaveScript, presenceKeys, sweepScript } from './presence-redis-layout';

/** A crashed process's entries are swept this many at a time (one round trip for each chunk). */
const sweepChunk = 500;

/** Presence in Redis (REDIS_URL set); its data layout and the scripts that decide first and last: presence-redis-layout.ts. */
export class RedisPresenceStore implements PresenceStore {
  readonly #redis: RedisClient;
  readonly #k: ReturnType<typeof presenceKeys>;
  /** Events this process is registered as holding something in (so a sweep after its death finds them). */
  readonly #registered = new Set<string>();

  constructor(
    redisUrl: string,
    private readonly processId: string,
    private readonly timing: PresenceTiming,
    logger: Logger,
    namespace: string,
  ) {
    this.#k = presenceKeys(namespace);
    // A join group's scripts go out as one write (and a crowd's leaves of one turn too).
    this.#redis = connectRedis(redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.#redis.on('error', (err) => logger.warn({ err }, 'live presence Redis connection error'));
  }

  async start(): Promise<void> {
    await this.heartbeat();
  }

  /**
   * Redis is not in the database transaction: the joins are decided here, before the outbox rows
   * commit, and the firsts stay pending until `settle`. All or none: if some fail, those that went
   * through are undone.
   */
  async joinMany(_tx: unknown, eventId: string, joins: PresenceJoin[]): Promise<PresenceJoin[]> {
    await this.#register(eventId);
    const results = await Promise.allSettled(joins.map((j) => this.#join(eventId, j)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await Promise.all(
        joins
          .filter((_, i) => results[i]!.status === 'fulfilled')
          .map((j) => this.leave(eventId, j.info.participantId)),
      );
      throw failed.reason;
    }
    return joins.filter((_, i) => (results[i] as PromiseFulfilledResult<boolean>).value);
  }

  /** Before the first join here: the registry names the event, so a sweep after this process's death finds its entries. */
  async #register(eventId: string): Promise<void> {
    if (this.#registered.has(eventId)) return;
    await this.#redis.sadd(this.#k.events(this.processId), eventId);
    this.#registered.add(eventId);
  }

  async settle(eventId: string, joins: PresenceJoin[], committed: boolean): Promise<void> {
    if (!joins.length) return;
    if (committed)
      await this.#redis.hdel(
        this.#k.pending(eventId, this.processId),
        ...joins.map((j) => j.info.participantId),
      );
    else await Promise.all(joins.map((j) => this.leave(eventId, j.info.participantId)));
  }

  async #join(eventId: string, { info, webhookId }: PresenceJoin): Promise<boolean> {
    const first = await this.#redis.eval(
      joinScript,
      5,
      this.#k.presence(eventId, info.participantId),
      this.#k.event(eventId),
      this.#k.held(eventId, this.processId),
      this.#k.audience(eventId),
      this.#k.pending(eventId, this.processId),
      this.processId,
      JSON.stringify(info),
      info.participantId,
      info.role,
      webhookId,
    );
    return first === 1;
  }

  async leave(eventId: string, participantId: string): Promise<PresenceInfo | null> {
    const info = await this.#redis.eval(
      leaveScript,
      5,
      this.#k.presence(eventId, participantId),
      this.#k.event(eventId),
      this.#k.held(eventId, this.processId),
      this.#k.audience(eventId),
      this.#k.pending(eventId, this.processId),
      this.processId,
      participantId,
    );
    return typeof info === 'string' ? (JSON.parse(info) as PresenceInfo) : null;
  }

  async list(eventId: string): Promise<PresenceInfo[]> {
    return this.#infos(eventId, await this.#redis.zrange(this.#k.event(eventId), '0', '-1'));
  }

  async page(eventId: string, after: string, limit: number): Promise<PresenceInfo[]> {
    const from = after ? `(${after}` : '-';
    const ids = await this.#redis.zrangebylex(this.#k.event(eventId), from, '+', 'LIMIT', '0', String(limit));
    return this.#infos(eventId, ids);
  }

  async counts(eventId: string): Promise<AudienceCounts> {
    const stored = await this.#redis.hgetall(this.#k.audience(eventId));
    const counts = noAudience();
    for (const role of Object.keys(counts) as (keyof AudienceCounts)[])
      counts[role] = Math.max(0, Number(stored[role] ?? 0));
    return counts;
  }

  async #infos(eventId: string, ids: string[]): Promise<PresenceInfo[]> {
    if (!ids.length) return [];
    const pipeline = this.#redis.pipeline();
    for (const id of ids) pipeline.hget(this.#k.presence(eventId, id), 'info');
    const infos = ((await pipeline.exec()) ?? []).map(([, v]) => v);
    return infos.filter((i): i is string => typeof i === 'string').map((i) => JSON.parse(i) as PresenceInfo);
  }

  async heartbeat(): Promise<void> {
    await this.#redis
      .multi()
      .set(this.#k.proc(this.processId), '1', 'PX', this.timing.ttlMs)
      .sadd(this.#k.procs, this.processId)
      .exec();
  }

  /** Entries of processes whose key expired: the last ones, and those whose join was never settled. */
  async sweep(): Promise<SweptEntry[]> {
    const gone: SweptEntry[] = [];
    for (const proc of await this.#redis.smembers(this.#k.procs)) {
      if (proc === this.processId || (await this.#redis.exists(this.#k.proc(proc)))) continue;
      for (const eventId of await this.#redis.smembers(this.#k.events(proc)))
        gone.push(...(await this.#sweepEvent(proc, eventId)));
      await this.#redis.multi().del(this.#k.events(proc)).srem(this.#k.procs, proc).exec();
    }
    return gone;
  }

  async #sweepEvent(proc: string, eventId: string): Promise<SweptEntry[]> {
    const gone: SweptEntry[] = [];
    const pending = await this.#redis.hgetall(this.#k.pending(eventId, proc));
    const entries = await this.#redis.smembers(this.#k.held(eventId, proc));
    for (let i = 0; i < entries.length; i += sweepChunk) {
      const chunk = entries.slice(i, i + sweepChunk);
      const swept = await Promise.all(
        chunk.map((participantId) => this.#sweepOne(proc, eventId, participantId)),
      );
      chunk.forEach((participantId, j) => {
        const s = swept[j];
        if (!s) return;
        const unsettledWebhookId = pending[participantId];
        if (s.last || unsettledWebhookId)
          gone.push({ ...s, ...(unsettledWebhookId ? { unsettledWebhookId } : {}) });
      });
    }
    await this.#redis.del(this.#k.held(eventId, proc), this.#k.pending(eventId, proc));
    return gone;
  }

  async #sweepOne(
    proc: string,
    eventId: string,
    participantId: string,
  ): Promise<Omit<SweptEntry, 'unsettledWebhookId'> | null> {
    const answer = (await this.#redis.eval(
      sweepScript,
      3,
      this.#k.presence(eventId, participantId),
      this.#k.event(eventId),
      this.#k.audience(eventId),
      proc,
      participantId,
    )) as [number, string | null] | null;
    if (!answer?.[1]) return null;
    return { eventId, info: JSON.parse(answer[1]) as PresenceInfo, last: answer[0] === 1 };
  }

  async stop(): Promise<void> {
    // A clean stop: this process holds nothing any more (its connections left one by one before).
    await Promise.all(
      [...this.#registered].map((eventId) => this.#redis.del(this.#k.pending(eventId, this.processId))),
    )
      .then(() =>
        this.#redis
          .multi()
          .del(this.#k.proc(this.processId), this.#k.events(this.processId))
          .srem(this.#k.procs, this.processId)
          .exec(),
      )
      .catch(() => {});
    this.#redis.disconnect();
  }
}
