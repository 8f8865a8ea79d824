import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  type AudienceCounts,
  noAudience,
  type PresenceInfo,
  type PresenceJoin,
  type PresenceStore,
  type PresenceTiming,
  type SweptEntry,
} from './presence-store';

/*
 * Presence in Redis (REDIS_URL set). Per participant a hash: one field per process holding its
 * connection count, plus `info` and `role` (the role it is counted under). A process is alive while
 * its key gc:live:proc:<id> exists (renewed by heartbeat with a TTL); a process whose key expired is
 * swept (its fields removed, participant.left for those it held last). Its counts stand until then,
 * as rows do with PostgreSQL: first and last are decided against the same fields the sweep decides
 * against, so a viewer of a crashed process who resumes here after its key expired but before the
 * sweep is not announced a second time. Per event a sorted set of participant ids (all scores 0, so
 * it pages in participantId order) and a hash of counts by role. The scripts make each join/leave/sweep decision atomic, so exactly one
 * process sees "first" or "last", and the counts move with those decisions.
 *
 * Redis is not in the database transaction that records participant.joined, so a first join is kept
 * in the process's `pending` hash (with the id its webhook will have) until that transaction ends:
 * committed, the mark goes; rolled back, the join is undone. A process that dies in between leaves
 * the mark for the sweep, which asks the database whether that webhook committed (see LivePresence).
 */
/** Keys of one deployment: `gc:live:<namespace>:…` (the namespace is the database's name). */
const keys = (namespace: string) => {
  const prefix = `gc:live:${namespace}:`;
  return {
    prefix,
    presence: (eventId: string, participantId: string) => `${prefix}p:${eventId}:${participantId}`,
    event: (eventId: string) => `${prefix}ev:${eventId}`,
    audience: (eventId: string) => `${prefix}aud:${eventId}`,
    proc: (processId: string) => `${prefix}proc:${processId}`,
    held: (processId: string) => `${prefix}held:${processId}`,
    pending: (processId: string) => `${prefix}pending:${processId}`,
    procs: `${prefix}procs`,
  };
};

const connectionCount = `
local function connections(key)
  local fields = redis.call('HGETALL', key)
  local n = 0
  for i = 1, #fields, 2 do
    local f = fields[i]
    if f ~= 'info' and f ~= 'role' then n = n + tonumber(fields[i + 1]) end
  end
  return n
end
local function uncount(key, audience)
  local role = redis.call('HGET', key, 'role')
  if role then redis.call('HINCRBY', audience, role, -1) end
end
`;

// KEYS: presence hash, event zset, held set, audience hash, pending hash.
// ARGV: process id, info, participant id, held entry, role, webhook id
const joinScript = `${connectionCount}
local before = connections(KEYS[1])
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[1], 'info', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[3])
redis.call('SADD', KEYS[3], ARGV[4])
if before > 0 then return 0 end
uncount(KEYS[1], KEYS[4])
redis.call('HSET', KEYS[1], 'role', ARGV[5])
redis.call('HINCRBY', KEYS[4], ARGV[5], 1)
redis.call('HSET', KEYS[5], ARGV[4], ARGV[6])
return 1`;

// Same KEYS. ARGV: process id, participant id, held entry. Answers the info when the last connection
// anywhere left. Also what undoes a join whose transaction did not commit.
const leaveScript = `${connectionCount}
redis.call('HDEL', KEYS[5], ARGV[3])
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return false end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[3])
if connections(KEYS[1]) > 0 then return false end
local info = redis.call('HGET', KEYS[1], 'info')
uncount(KEYS[1], KEYS[4])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return info`;

// KEYS: presence hash, event zset, audience hash. ARGV: dead process id, participant id.
// Answers {1, info} when nobody holds the participant any more, {0, info} when others still do.
const sweepScript = `${connectionCount}
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return false end
local info = redis.call('HGET', KEYS[1], 'info')
if connections(KEYS[1]) > 0 then return {0, info} end
uncount(KEYS[1], KEYS[3])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return {1, info}`;

/** A crashed process's entries are swept this many at a time (one round trip for each chunk). */
const sweepChunk = 500;

export class RedisPresenceStore implements PresenceStore {
  readonly #redis: Redis;
  readonly #k: ReturnType<typeof keys>;

  constructor(
    redisUrl: string,
    private readonly processId: string,
    private readonly timing: PresenceTiming,
    logger: Logger,
    namespace: string,
  ) {
    this.#k = keys(namespace);
    // A join group's scripts go out as one write (and a crowd's leaves of one turn too).
    this.#redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
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

  async settle(eventId: string, joins: PresenceJoin[], committed: boolean): Promise<void> {
    if (!joins.length) return;
    if (committed)
      await this.#redis.hdel(
        this.#k.pending(this.processId),
        ...joins.map((j) => `${eventId}|${j.info.participantId}`),
      );
    else await Promise.all(joins.map((j) => this.leave(eventId, j.info.participantId)));
  }

  async #join(eventId: string, { info, webhookId }: PresenceJoin): Promise<boolean> {
    const first = await this.#redis.eval(
      joinScript,
      5,
      this.#k.presence(eventId, info.participantId),
      this.#k.event(eventId),
      this.#k.held(this.processId),
      this.#k.audience(eventId),
      this.#k.pending(this.processId),
      this.processId,
      JSON.stringify(info),
      info.participantId,
      `${eventId}|${info.participantId}`,
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
      this.#k.held(this.processId),
      this.#k.audience(eventId),
      this.#k.pending(this.processId),
      this.processId,
      participantId,
      `${eventId}|${participantId}`,
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
      const pending = await this.#redis.hgetall(this.#k.pending(proc));
      const entries = await this.#redis.smembers(this.#k.held(proc));
      for (let i = 0; i < entries.length; i += sweepChunk) {
        const chunk = entries.slice(i, i + sweepChunk);
        const swept = await Promise.all(chunk.map((entry) => this.#sweepOne(proc, entry)));
        chunk.forEach((entry, j) => {
          const s = swept[j];
          if (!s) return;
          const unsettledWebhookId = pending[entry];
          if (s.last || unsettledWebhookId)
            gone.push({ ...s, ...(unsettledWebhookId ? { unsettledWebhookId } : {}) });
        });
      }
      await this.#redis
        .multi()
        .del(this.#k.held(proc), this.#k.pending(proc))
        .srem(this.#k.procs, proc)
        .exec();
    }
    return gone;
  }

  async #sweepOne(proc: string, entry: string): Promise<Omit<SweptEntry, 'unsettledWebhookId'> | null> {
    const [eventId, participantId] = entry.split('|') as [string, string];
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
    await this.#redis
      .multi()
      .del(this.#k.proc(this.processId), this.#k.pending(this.processId))
      .srem(this.#k.procs, this.processId)
      .exec()
      .catch(() => {});
    this.#redis.disconnect();
  }
}
