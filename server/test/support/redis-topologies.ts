import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { waitUntil } from './budgets';
import { aptInstall } from './commands';
import { freePort } from './ports';
import { RedisServer } from './redis-server';

/** What the live tests need of a Redis deployment started for them. */
export interface RedisTopology {
  /** REDIS_URL for the servers. */
  url: string;
  /** A client of the server that holds `key` as master now. */
  masterOf(key: string): Promise<Redis>;
  /** A planned failover of the master holding `key`: resolves once its replica answers as master. */
  failover(key: string): Promise<void>;
  stop(): Promise<void>;
}

const ephemeral = ['--save', '', '--appendonly', 'no'];

/** Debian's redis-server and redis-cli, installed when missing (the test machines run as root with apt). */
async function ensureRedisTools(): Promise<void> {
  const present = ['redis-server', 'redis-cli'].every((c) => spawnSync(c, ['--version']).status === 0);
  if (present) return;
  const install = await aptInstall(['redis-server', 'redis-tools']);
  if (install.status !== 0) throw new Error(`apt-get install redis-server failed:\n${install.stderr}`);
}
const client = (port: number) => {
  const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  return redis;
};

/**
 * A Redis Cluster of three masters, each with one replica, from `redis-server` on free local ports
 * (`redis-cli --cluster create`), its files in a temporary directory removed at the end.
 */
export class RedisClusterNodes implements RedisTopology {
  readonly #clients = new Map<number, Redis>();

  private constructor(
    private readonly ports: number[],
    private readonly servers: RedisServer[],
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis-cluster://${this.ports
      .slice(0, 3)
      .map((p) => `127.0.0.1:${p}`)
      .join(',')}`;
  }

  static async start(): Promise<RedisClusterNodes> {
    await ensureRedisTools();
    const dir = mkdtempSync(path.join(tmpdir(), 'gc-redis-cluster-'));
    const ports: number[] = [];
    const busPorts: number[] = [];
    for (let i = 0; i < 6; i++) {
      ports.push(await freePort());
      busPorts.push(await freePort());
    }
    const servers = await Promise.all(
      ports.map((port, i) =>
        RedisServer.start(port, [
          ...ephemeral,
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-port',
          String(busPorts[i]),
          '--cluster-node-timeout',
          '2000',
        ]),
      ),
    );
    const nodes = new RedisClusterNodes(ports, servers, dir);
    const create = spawnSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (create.status !== 0) {
      await nodes.stop();
      throw new Error(`redis-cli --cluster create failed:\n${create.stdout}\n${create.stderr}`);
    }
    await waitUntil(
      () => nodes.#settled(),
      'every cluster node to see all slots served and its replica in sync',
    );
    return nodes;
  }

  #client(port: number): Redis {
    let c = this.#clients.get(port);
    if (!c) {
      c = client(port);
      this.#clients.set(port, c);
    }
    return c;
  }

  /** Every node says the cluster is ok, and every master's replica is linked. */
  async #settled(): Promise<boolean> {
    for (const port of this.ports) {
      const info = (await this.#client(port).cluster('INFO')) as string;
      if (!info.includes('cluster_state:ok')) return false;
      const replication = await this.#client(port).info('replication');
      if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return false;
    }
    // The first node's slot map lists a replica for every range (what #shard reads).
    const shards = await this.#client(this.ports[0]!).cluster('SLOTS');
    return shards.length > 0 && shards.every((shard) => shard.length >= 4);
  }

  /** The master and replica ports of the slot holding `key`, as a node sees them now. */
  async #shard(key: string): Promise<{ master: number; replica: number }> {
    const slot = (await this.#client(this.ports[0]!).cluster('KEYSLOT', key)) as number;
    const shards = await this.#client(this.ports[0]!).cluster('SLOTS');
    const shard = shards.find(([from, to]) => slot >= from && slot <= to)!;
    return { master: shard[2]![1], replica: shard[3]![1] };
  }

  async masterOf(key: string): Promise<Redis> {
    await waitUntil(() => this.#settled(), 'the cluster to settle');
    return this.#client((await this.#shard(key)).master);
  }

  async failover(key: string): Promise<void> {
    const { replica } = await this.#shard(key);
    await this.#client(replica).cluster('FAILOVER');
    await waitUntil(
      async () => (await this.#client(replica).role())[0] === 'master' && (await this.#settled()),
      'the replica to take over as master',
    );
  }

  async stop(): Promise<void> {
    for (const c of this.#clients.values()) c.disconnect();
    await Promise.all(this.servers.map((s) => s.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * One master and its replica watched by a pair of Sentinels (`redis-server --sentinel`), on free local
 * ports, the Sentinels' files in a temporary directory removed at the end. The master set is `gathercast`.
 */
export class RedisSentinelPair implements RedisTopology {
  private constructor(
    private readonly sentinelPorts: number[],
    private readonly servers: RedisServer[],
    private readonly dir: string,
  ) {}

  static readonly masterName = 'gathercast';

  get url(): string {
    return `redis-sentinel://${this.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',')}/${RedisSentinelPair.masterName}`;
  }

  static async start(): Promise<RedisSentinelPair> {
    await ensureRedisTools();
    const dir = mkdtempSync(path.join(tmpdir(), 'gc-redis-sentinel-'));
    const [masterPort, replicaPort, ...sentinelPorts] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ] as [number, number, number, number];
    const master = await RedisServer.start(masterPort, ephemeral);
    const replica = await RedisServer.start(replicaPort, [
      ...ephemeral,
      '--replicaof',
      '127.0.0.1',
      String(masterPort),
    ]);
    const sentinels = await Promise.all(
      sentinelPorts.map((port) => {
        const conf = path.join(dir, `sentinel-${port}.conf`);
        writeFileSync(
          conf,
          [
            `sentinel monitor ${RedisSentinelPair.masterName} 127.0.0.1 ${masterPort} 1`,
            `sentinel down-after-milliseconds ${RedisSentinelPair.masterName} 2000`,
            `sentinel failover-timeout ${RedisSentinelPair.masterName} 5000`,
            '',
          ].join('\n'),
        );
        return RedisServer.start(port, ['--sentinel'], [conf]);
      }),
    );
    const pair = new RedisSentinelPair(sentinelPorts, [master, replica, ...sentinels], dir);
    await waitUntil(async () => {
      for (const port of sentinelPorts) {
        const s = client(port);
        const replicas = (await s.call('SENTINEL', 'REPLICAS', RedisSentinelPair.masterName)) as unknown[];
        s.disconnect();
        if (replicas.length !== 1) return false;
      }
      return (await client(replicaPort).info('replication')).includes('master_link_status:up');
    }, 'both Sentinels to know the master and its replica');
    return pair;
  }

  async #masterPort(): Promise<number> {
    const s = client(this.sentinelPorts[0]!);
    const [, port] = (await s.call(
      'SENTINEL',
      'GET-MASTER-ADDR-BY-NAME',
      RedisSentinelPair.masterName,
    )) as string[];
    s.disconnect();
    return Number(port);
  }

  async masterOf(_key: string): Promise<Redis> {
    return client(await this.#masterPort());
  }

  /**
   * A planned switchover, as an operator runs one without losing writes: the master holds writes
   * (CLIENT PAUSE WRITE), the Sentinels promote the replica, the old master is made to follow the new
   * one, and the writes it held are answered READONLY, which sends the clients to the new master.
   */
  async failover(_key: string): Promise<void> {
    const before = await this.#masterPort();
    const old = client(before);
    await old.call('CLIENT', 'PAUSE', '20000', 'WRITE');
    const s = client(this.sentinelPorts[0]!);
    await s.call('SENTINEL', 'FAILOVER', RedisSentinelPair.masterName);
    s.disconnect();
    await waitUntil(async () => {
      const now = await this.#masterPort();
      if (now === before) return false;
      const promoted = client(now);
      const role = await promoted.role();
      promoted.disconnect();
      return role[0] === 'master';
    }, 'the Sentinels to promote the replica');
    // Sentinel's own reconfiguration of the old master (a transaction) would wait for the pause to end.
    await old.call('REPLICAOF', '127.0.0.1', String(await this.#masterPort()));
    await old.call('CLIENT', 'UNPAUSE');
    old.disconnect();
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
