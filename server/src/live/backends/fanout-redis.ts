import type { Logger } from 'pino';
import { connectRedis, type RedisClient } from '../../lib/redis';
import {
  type Backlog,
  channel,
  type Envelope,
  type Fanout,
  type HistoryLimits,
  isNotice,
  parseNumbered,
  whole,
} from '../fanout';
import { EventSubscriptions } from './event-subscriptions';
import { SeqRepair, seqCheckMs } from './seq-repair';

// KEYS: seq counter, history stream. ARGV: the event's channel, envelope json, window ms, max kept,
// floor. One script: numbering, keeping and publishing are atomic, so every subscriber sees seq order.
// The counter outlives any quiet spell of a live event (30 days): were it to restart at 1, sockets
// still open would take the new numbers for ones already sent and drop them. For the same reason it
// never numbers at or below the floor, the last seq the publishing process delivered: a counter below
// it lost writes (an unplanned failover to a replica that had not received them).
const publishScript = `
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[5]) then
  redis.call('SET', KEYS[1], ARGV[5])
end
local seq = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], 2592000000)
local window = tonumber(ARGV[3])
local max = tonumber(ARGV[4])
if max > 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('XADD', KEYS[2], 'MAXLEN', max, '*', 'seq', seq, 'env', ARGV[2])
  redis.call('XTRIM', KEYS[2], 'MINID', string.format('%d', now - window))
  redis.call('PEXPIRE', KEYS[2], window * 2)
end
redis.call('SPUBLISH', ARGV[1], seq .. ':' .. ARGV[2])
return seq`;

// KEYS: seq counter. ARGV: floor. Raises a counter that went back below numbers already delivered
// (see the floor above); answers whether it did.
const raiseScript = `
if tonumber(redis.call('GET', KEYS[1]) or '0') < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', 2592000000)
  return 1
end
return 0`;

// KEYS: seq counter, history stream. ARGV: after, window ms. Answers { last seq, 'seq:env'... oldest first }
// with only the entries younger than the window.
const sinceScript = `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local after = tonumber(ARGV[1])
local out = { last }
if after >= last then return out end
local t = redis.call('TIME')
local oldest = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[2])
local entries = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', last - after)
for i = #entries, 1, -1 do
  local id, fields = entries[i][1], entries[i][2]
  if tonumber(string.match(id, '^(%d+)')) >= oldest then
    out[#out + 1] = fields[2] .. ':' .. fields[4]
  end
end
return out`;

/**
 * Redis sharded pub/sub (REDIS_URL set; Redis 7): one channel per event, in the event's hash slot beside
 * its counter and stream, so on a cluster an event's messages stay on the shard that owns the event.
 * A process listens only to the events it serves (`serve`/`release`): it receives no other event's
 * messages. The same commands on one server, behind Sentinels or on a cluster.
 */
export class RedisFanout implements Fanout {
  readonly #pub: RedisClient;
  readonly #sub: RedisClient;
  /** Keys and channels of one deployment (namespace = the database's name), so deployments sharing a Redis stay apart. */
  readonly #prefix: string;
  readonly #subscriptions: EventSubscriptions;
  #repair: SeqRepair | undefined;
  #check: NodeJS.Timeout | undefined;

  constructor(
    redisUrl: string,
    private readonly logger: Logger,
    namespace: string,
    private readonly limits: HistoryLimits,
  ) {
    this.#prefix = `gc:live:${namespace}:`;
    // Commands of one event-loop turn (a crowd's history reads and resume notices) leave as one write.
    this.#pub = connectRedis(redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.#sub = connectRedis(redisUrl, { maxRetriesPerRequest: 2 }, true);
    // ioredis reconnects by itself (and subscribes again); a lost connection is worth a warning, not a crash.
    for (const r of [this.#pub, this.#sub])
      r.on('error', (err) => this.logger.warn({ err }, 'live Redis connection error'));
    this.#subscriptions = new EventSubscriptions(
      async (eventId) => {
        await this.#sub.ssubscribe(this.#channel(eventId));
        this.#repair?.begin(eventId, await this.lastSeq(eventId));
      },
      (eventId) => {
        this.#repair?.end(eventId);
        return this.#sub.sunsubscribe(this.#channel(eventId));
      },
      (err) => this.logger.warn({ err }, 'live Redis unsubscribe failed'),
    );
  }

  /** The event's counter and stream, hash-tagged to one cluster slot. */
  #keys(eventId: string): [string, string] {
    return [`${this.#prefix}seq:{${eventId}}`, `${this.#prefix}hist:{${eventId}}`];
  }

  /**
   * Room control (a ban, a removal, a room setting) reaches every process, not only those serving the
   * event: a process remembers where a participant who left connected from, and an address ban must
   * reach it. Such notices are few (a host's actions), so one deployment-wide channel carries them.
   */
  #controlChannel(): string {
    return `${this.#prefix}${channel}:{control}`;
  }

  /** The event's channel, in the same slot as its keys. */
  #channel(eventId: string): string {
    return `${this.#prefix}${channel}:{${eventId}}`;
  }

  async start(deliver: (envelope: Envelope) => void): Promise<void> {
    const repair = new SeqRepair(
      this,
      (envelope) => {
        try {
          deliver(envelope);
        } catch (err) {
          this.logger.warn({ err }, 'live fan-out message dropped');
        }
      },
      this.logger,
    );
    this.#repair = repair;
    this.#sub.on('smessage', (_c: string, payload: string) => {
      try {
        repair.receive(parseNumbered(payload));
      } catch (err) {
        this.logger.warn({ err }, 'live fan-out message dropped');
      }
    });
    await this.#sub.ssubscribe(this.#controlChannel());
    // What a reconnecting subscriber missed, when no later message shows the gap (see SeqRepair).
    this.#check = setInterval(() => void repair.check(), seqCheckMs);
    this.#check.unref();
  }

  serve(eventId: string): Promise<void> {
    return this.#subscriptions.serve(eventId);
  }

  release(eventId: string): void {
    this.#subscriptions.release(eventId);
  }

  async publish(envelope: Envelope): Promise<void> {
    if (isNotice(envelope)) {
      const to = envelope.control ? this.#controlChannel() : this.#channel(envelope.eventId);
      await this.#pub.spublish(to, `:${JSON.stringify(envelope)}`);
      return;
    }
    await this.#pub.eval(
      publishScript,
      2,
      ...this.#keys(envelope.eventId),
      this.#channel(envelope.eventId),
      JSON.stringify(envelope),
      this.limits.windowMs,
      this.limits.max,
      this.#repair?.lastDelivered(envelope.eventId) ?? 0,
    );
  }

  /** Raises the event's counter to `floor` if it is below; whether it was. */
  async raise(eventId: string, floor: number): Promise<boolean> {
    return (await this.#pub.eval(raiseScript, 1, this.#keys(eventId)[0], floor)) === 1;
  }

  async lastSeq(eventId: string): Promise<number> {
    return Number((await this.#pub.get(this.#keys(eventId)[0])) ?? 0);
  }

  async since(eventId: string, after: number): Promise<Backlog | null> {
    const [last, ...entries] = (await this.#pub.eval(
      sinceScript,
      2,
      ...this.#keys(eventId),
      after,
      this.limits.windowMs,
    )) as [number, ...string[]];
    return whole(after, Number(last), entries.map(parseNumbered));
  }

  async stop(): Promise<void> {
    clearInterval(this.#check);
    this.#sub.disconnect();
    this.#pub.disconnect();
  }
}
