import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { PresenceInfo, PresenceStore, PresenceTiming } from './presence-store';

/*
 * Presence in Redis (REDIS_URL set). Per participant a hash: one field per process holding its
 * connection count, plus `info`. A process is alive while its key gc:live:proc:<id> exists (renewed
 * by heartbeat with a TTL); counts of dead processes do not count. The scripts make each
 * join/leave/sweep decision atomic, so exactly one process sees "first" or "last".
 */
/** Keys of one deployment: `gc:live:<namespace>:…` (the namespace is the database's name). */
const keys = (namespace: string) => {
  const prefix = `gc:live:${namespace}:`;
  return {
    prefix,
    presence: (eventId: string, participantId: string) => `${prefix}p:${eventId}:${participantId}`,
    event: (eventId: string) => `${prefix}ev:${eventId}`,
    proc: (processId: string) => `${prefix}proc:${processId}`,
    held: (processId: string) => `${prefix}held:${processId}`,
    procs: `${prefix}procs`,
  };
};

const aliveCount = `
local function alive(key, procPrefix, except)
  local fields = redis.call('HGETALL', key)
  local n = 0
  for i = 1, #fields, 2 do
    local f = fields[i]
    if f ~= 'info' and f ~= except and redis.call('EXISTS', procPrefix .. f) == 1 then
      n = n + tonumber(fields[i + 1])
    end
  end
  return n
end
`;

// KEYS: presence hash, event set, held set. ARGV: process id, info, proc prefix, participant id, held entry
const joinScript = `${aliveCount}
local before = alive(KEYS[1], ARGV[3], '')
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[1], 'info', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[5])
if before == 0 then return 1 else return 0 end`;

// Same KEYS and ARGV[1], ARGV[3], ARGV[4], ARGV[5]. Answers the info when the last connection anywhere left.
const leaveScript = `${aliveCount}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return false end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[5])
if alive(KEYS[1], ARGV[3], '') > 0 then return false end
local info = redis.call('HGET', KEYS[1], 'info')
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[4])
return info`;

// KEYS: presence hash, event set. ARGV: dead process id, proc prefix, participant id.
const sweepScript = `${aliveCount}
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return false end
if alive(KEYS[1], ARGV[2], '') > 0 then return false end
local info = redis.call('HGET', KEYS[1], 'info')
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[3])
return info`;

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
    this.#redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    this.#redis.on('error', (err) => logger.warn({ err }, 'live presence Redis connection error'));
  }

  async start(): Promise<void> {
    await this.heartbeat();
  }

  async join(eventId: string, info: PresenceInfo): Promise<boolean> {
    const first = await this.#redis.eval(
      joinScript,
      3,
      this.#k.presence(eventId, info.participantId),
      this.#k.event(eventId),
      this.#k.held(this.processId),
      this.processId,
      JSON.stringify(info),
      `${this.#k.prefix}proc:`,
      info.participantId,
      `${eventId}|${info.participantId}`,
    );
    return first === 1;
  }

  async leave(eventId: string, participantId: string): Promise<PresenceInfo | null> {
    const info = await this.#redis.eval(
      leaveScript,
      3,
      this.#k.presence(eventId, participantId),
      this.#k.event(eventId),
      this.#k.held(this.processId),
      this.processId,
      '',
      `${this.#k.prefix}proc:`,
      participantId,
      `${eventId}|${participantId}`,
    );
    return typeof info === 'string' ? (JSON.parse(info) as PresenceInfo) : null;
  }

  async list(eventId: string): Promise<PresenceInfo[]> {
    const ids = await this.#redis.smembers(this.#k.event(eventId));
    const infos = await Promise.all(ids.map((id) => this.#redis.hget(this.#k.presence(eventId, id), 'info')));
    return infos.filter((i): i is string => !!i).map((i) => JSON.parse(i) as PresenceInfo);
  }

  async heartbeat(): Promise<void> {
    await this.#redis
      .multi()
      .set(this.#k.proc(this.processId), '1', 'PX', this.timing.ttlMs)
      .sadd(this.#k.procs, this.processId)
      .exec();
  }

  async sweep(): Promise<{ eventId: string; info: PresenceInfo }[]> {
    const gone: { eventId: string; info: PresenceInfo }[] = [];
    for (const proc of await this.#redis.smembers(this.#k.procs)) {
      if (proc === this.processId || (await this.#redis.exists(this.#k.proc(proc)))) continue;
      for (const entry of await this.#redis.smembers(this.#k.held(proc))) {
        const [eventId, participantId] = entry.split('|') as [string, string];
        const info = await this.#redis.eval(
          sweepScript,
          2,
          this.#k.presence(eventId, participantId),
          this.#k.event(eventId),
          proc,
          `${this.#k.prefix}proc:`,
          participantId,
        );
        if (typeof info === 'string') gone.push({ eventId, info: JSON.parse(info) as PresenceInfo });
      }
      await this.#redis.multi().del(this.#k.held(proc)).srem(this.#k.procs, proc).exec();
    }
    return gone;
  }

  async stop(): Promise<void> {
    // A clean stop: this process holds nothing any more (its connections left one by one before).
    await this.#redis
      .multi()
      .del(this.#k.proc(this.processId))
      .srem(this.#k.procs, this.processId)
      .exec()
      .catch(() => {});
    this.#redis.disconnect();
  }
}
