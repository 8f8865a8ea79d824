import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import { parseRedisUrl } from '../redis-url';

/** Any ioredis client: one server (alone or behind Sentinels) or a cluster. */
export type RedisClient = Redis | Cluster;

/**
 * Every Redis connection of the service is made here, from REDIS_URL and the caller's settings (which
 * apply to each node's connection; `enableOfflineQueue` and `enableAutoPipelining` to the cluster too).
 * `sharded`: a cluster client subscribes through one connection per master (sharded pub/sub).
 */
export function connectRedis(url: string, options: RedisOptions = {}, sharded = false): RedisClient {
  const target = parseRedisUrl(url);
  if (target.kind === 'single') return new Redis(url, options);
  const tls = target.tls ? { tls: {} } : {};
  if (target.kind === 'sentinel')
    return new Redis({
      ...options,
      ...target.auth,
      ...tls,
      sentinels: target.sentinels,
      name: target.name,
      db: target.db,
      ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
      // A failover is heard from the Sentinels (+switch-master) and every connection, subscribers
      // included, moves to the new master at once; a write that still reached the demoted one
      // (READONLY) reconnects and is sent again there.
      failoverDetector: true,
      reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
      ...(target.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    });
  const { enableOfflineQueue, enableAutoPipelining } = options;
  const clusterOptions: ClusterOptions = {
    redisOptions: { ...options, ...target.auth, ...tls },
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    ...(enableAutoPipelining !== undefined ? { enableAutoPipelining } : {}),
    shardedSubscribers: sharded,
  };
  return new Cluster(target.nodes, clusterOptions);
}
