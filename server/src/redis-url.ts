/**
 * REDIS_URL's forms (docs/deploy.md, "Redis"):
 *
 * - `redis://[user:password@]host:port[/db]`, `rediss://…` (TLS): one server.
 * - `redis-sentinel://[user:password@]host:port,host:port/<master name>[/db]` (`rediss-sentinel://`: TLS to
 *   the master and its replicas): the master that the Sentinels name, followed across failovers. The
 *   password is the master's; `?sentinelPassword=` gives the Sentinels' when they have one.
 * - `redis-cluster://[user:password@]host:port,host:port` (`rediss-cluster://`: TLS): a Redis Cluster,
 *   reached through any of the seed nodes. No database number (a cluster has database 0 only).
 */
export type RedisTarget =
  | { kind: 'single'; url: string }
  | {
      kind: 'sentinel';
      sentinels: HostPort[];
      name: string;
      db: number;
      auth: Auth;
      tls: boolean;
      sentinelPassword?: string;
    }
  | { kind: 'cluster'; nodes: HostPort[]; auth: Auth; tls: boolean };

interface HostPort {
  host: string;
  port: number;
}

interface Auth {
  username?: string;
  password?: string;
}

export const redisUrlForms =
  'redis://host:port, rediss://host:port, redis-sentinel://host:port,host:port/<master name> or redis-cluster://host:port,host:port';

const multiHost = /^(rediss?)-(sentinel|cluster):\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/;

/** Parses REDIS_URL; throws an Error whose message says what is wrong with it. */
export function parseRedisUrl(value: string): RedisTarget {
  const multi = multiHost.exec(value);
  if (!multi) {
    if (!URL.canParse(value)) throw new Error(`must be one of ${redisUrlForms}`);
    const url = new URL(value);
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
      throw new Error(`must be one of ${redisUrlForms}`);
    return { kind: 'single', url: value };
  }
  const [, scheme, kind, userinfo, hostList, path = '', query = ''] = multi as unknown as string[];
  const hosts = hostList!.split(',').map(hostPort);
  const auth = parseAuth(userinfo);
  const tls = scheme === 'rediss';
  const params = new URLSearchParams(query);
  const segments = path.split('/').filter(Boolean);
  if (kind === 'cluster') {
    if (segments.length)
      throw new Error('a redis-cluster:// URL has no path (a cluster has database 0 only)');
    return { kind: 'cluster', nodes: hosts, auth, tls };
  }
  const [name, db = '0'] = segments.map(decodeURIComponent);
  if (!name || segments.length > 2)
    throw new Error('a redis-sentinel:// URL names the master: /<master name>[/db]');
  if (!/^\d+$/.test(db)) throw new Error(`the database "${db}" is not a number`);
  const sentinelPassword = params.get('sentinelPassword') ?? undefined;
  return {
    kind: 'sentinel',
    sentinels: hosts,
    name,
    db: Number(db),
    auth,
    tls,
    ...(sentinelPassword ? { sentinelPassword } : {}),
  };
}

function hostPort(entry: string): HostPort {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry.trim());
  if (!m) throw new Error(`"${entry}" is not host:port`);
  const port = Number(m[2] ?? 0);
  if (!m[2] || port < 1 || port > 65535) throw new Error(`"${entry}" needs a port (1-65535)`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

function parseAuth(userinfo: string | undefined): Auth {
  if (!userinfo) return {};
  const colon = userinfo.indexOf(':');
  const username = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const password = colon < 0 ? undefined : decodeURIComponent(userinfo.slice(colon + 1));
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}
