import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config';
import { requestDrainMs } from '../src/server';
import { repoDir } from './support/cluster';

/**
 * The Kubernetes manifests in deploy/k8s/, validated against the Kubernetes API's JSON schemas (as
 * packaged by kubernetes-models), and held to what the server does: the probes' paths, the preStop
 * and grace period against the drain's bound, the autoscaler's metrics against what /metrics exports.
 */
const dir = path.join(repoDir, 'deploy/k8s');
const objects = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => parseAllDocuments(readFileSync(path.join(dir, f), 'utf8')).map((d) => d.toJSON()))
  .filter(Boolean) as { kind: string; apiVersion: string }[];
const models = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
} as const;
const one = <K extends keyof typeof models>(key: K) => {
  const found = objects.find((o) => `${o.apiVersion}/${o.kind}` === key);
  if (!found) throw new Error(`no ${key} in deploy/k8s`);
  return new models[key](found as never) as InstanceType<(typeof models)[K]>;
};

describe('deploy/k8s', () => {
  it('holds a Deployment, a Service, a PodDisruptionBudget and an autoscaler, each valid against the Kubernetes schemas', () => {
    expect(objects.map((o) => `${o.apiVersion}/${o.kind}`).sort()).toEqual(Object.keys(models).sort());
    for (const o of objects) {
      const Model = models[`${o.apiVersion}/${o.kind}` as keyof typeof models];
      expect(() => new Model(o as never).validate(), `${o.kind}`).not.toThrow();
    }
  });

  it('rejects a manifest the schemas do not allow (the validation is real)', () => {
    const broken = structuredClone(objects.find((o) => o.kind === 'Deployment')) as unknown as {
      spec: { replicas: unknown };
    };
    broken.spec.replicas = 'three';
    expect(() => new Deployment(broken as never).validate()).toThrow();
  });

  it('checks readiness on /readyz and liveness on /healthz, never the other way round', () => {
    const container = one('apps/v1/Deployment').spec!.template.spec!.containers[0]!;
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.resources?.limits?.memory).toBeDefined();
  });

  it('gives a pod more time than preStop plus the drain’s documented bound before SIGKILL', () => {
    const spec = one('apps/v1/Deployment').spec!.template.spec!;
    const container = spec.containers[0]!;
    const env = Object.fromEntries(
      (container.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]])),
    );
    const { shutdown } = loadConfig({ DATABASE_URL: 'postgres://x@y/z', ...env });
    const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
    expect(preStop.slice(0, 1)).toEqual(['sleep']);
    const boundMs =
      Number(preStop[1]) * 1000 + shutdown.delayMs + shutdown.liveMoveMs + requestDrainMs + 5000;
    expect(spec.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(boundMs);
  });

  it('keeps all but one pod through voluntary disruptions and a roll', () => {
    expect(one('policy/v1/PodDisruptionBudget').spec?.maxUnavailable).toBe(1);
    expect(one('apps/v1/Deployment').spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
  });

  it('scales on live sockets and event-loop lag, metrics the server exports', async () => {
    const { registry } = await import('../src/lib/metrics');
    const exported = new Set((await registry.getMetricsAsJSON()).map((m) => m.name));
    const names = (one('autoscaling/v2/HorizontalPodAutoscaler').spec?.metrics ?? []).flatMap((m) =>
      m.pods ? [m.pods.metric.name] : [],
    );
    expect(names.sort()).toEqual(['gathercast_live_sockets', 'nodejs_eventloop_lag_seconds']);
    for (const name of names) expect(exported, name).toContain(name);
  });
});
