import { contract, errorCodes, errorStatus, type RouteMetadata } from '@gathercast/contract';
import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { createWorkspace, type WorkspaceFixture } from './support/fixtures';
import { bodyMutants, mutateBody, pathMutants, queryMutants } from './support/fuzz-http-mutants';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';
import { Rng, sample } from './support/zod-samples';

/**
 * Every operation of the contract, driven by its own zod schemas (path parameters, query, body): valid
 * inputs, then mutants (wrong types, NUL, lone surrogates, deep nesting, huge strings, bad timestamps,
 * extreme numbers, extra and missing fields, other body shapes and content types, bad path and query
 * values, oversized headers). Fixed seed, bounded count. Every answer is below 500, and every 4xx is
 * application/problem+json with a code of the contract at that code's status.
 */

const seed = 0x13f022;
const validPerOperation = 3;
const mutantRoundsPerOperation = 2;

let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

interface Operation {
  name: string;
  route: AppRoute;
}

function operations(router: AppRouter, prefix = ''): Operation[] {
  return Object.entries(router).flatMap(([key, value]) =>
    isAppRoute(value)
      ? [{ name: `${prefix}${key}`, route: value }]
      : operations(value as AppRouter, `${prefix}${key}.`),
  );
}

const isZod = (value: unknown): value is ZodTypeAny =>
  typeof value === 'object' && value !== null && '_def' in value && 'safeParse' in value;

/** A workspace of its own for each operation, with one of each resource its path may name. */
interface Scene {
  ws: WorkspaceFixture;
  ids: Record<string, string>;
}

async function scene(rng: Rng): Promise<Scene> {
  const ws = await createWorkspace(t.databaseUrl);
  const gc = t.client({ apiKey: ws.apiKey });
  const event = await gc.events.create({
    type: 'fuzz',
    title: 'Fuzz',
    visibility: 'public',
    phases: [{ modality: 'broadcast' }],
  });
  const { phases } = await gc.events.retrieve(event.id);
  const recording = await gc.content.createRecording(event.id, { url: 'https://media.example.test/r.mp4' });
  const webhook = await gc.webhooks.create({ url: 'http://127.0.0.1:9/fuzz' });
  await gc.events.publish(event.id);
  const registration = await gc.public.register(event.id, {
    name: 'Fuzz',
    email: `fuzz-${event.id}@example.test`,
  });
  return {
    ws,
    ids: {
      workspaces: ws.workspaceId,
      events: event.id,
      phases: phases[0]!.id,
      recordings: recording.id,
      webhooks: webhook.id,
      registrations: registration.registrationId,
      'api-keys': ws.apiKeyId,
      keyId: ws.apiKeyId,
      random: rng.uuid(),
    },
  };
}

/** The path with its parameters filled: the scene's resource named by the segment before it, else a random id. */
function fillPath(path: string, s: Scene, rng: Rng, override?: string): string {
  const segments = path.split('/');
  return segments
    .map((segment, i) => {
      if (!segment.startsWith(':')) return segment;
      if (override !== undefined && rng.chance(0.7)) return override;
      const name = segment.slice(1);
      return encodeURIComponent(
        s.ids[name] ?? s.ids[segments[i - 1] ?? ''] ?? (name === 'token' ? rng.word(20) : rng.uuid()),
      );
    })
    .join('/');
}

function credentials(route: AppRoute, s: Scene): Record<string, string> {
  const policy = (route.metadata as RouteMetadata | undefined)?.access ?? 'public';
  switch (policy) {
    case 'public':
      return {};
    case 'account':
    case 'accountOrPlatform':
    case 'memberSession':
      return { authorization: `Bearer ${s.ws.sessionToken}`, 'x-workspace-id': s.ws.workspaceId };
    default:
      return { 'x-api-key': s.ws.apiKey };
  }
}

function queryString(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    params.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface Request {
  kind: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  /** Sent as is; undefined: no body. */
  body?: string;
}

function requestsFor(op: Operation, s: Scene, rng: Rng): Request[] {
  const { route } = op;
  const bodySchema = 'body' in route && isZod(route.body) ? route.body : undefined;
  const querySchema = isZod(route.query) ? route.query : undefined;
  const auth = credentials(route, s);
  const validQuery = () => (querySchema ? queryString(sample(querySchema, rng)) : '');
  const validBody = () => (bodySchema ? sample(bodySchema, rng) : undefined);
  const base = (kind: string, body?: unknown): Request => ({
    kind,
    path: fillPath(route.path, s, rng),
    query: validQuery(),
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const out: Request[] = [];
  // Mutants first: the valid inputs may delete or revoke what the mutants would need.
  for (let round = 0; round < mutantRoundsPerOperation; round++) {
    if (route.method !== 'GET') {
      for (const kind of bodyMutants) {
        const mutant = mutateBody(validBody() ?? {}, rng, kind);
        const req = base(kind);
        req.body = mutant.body;
        if (mutant.contentType !== undefined) {
          if (mutant.contentType) req.headers['content-type'] = mutant.contentType;
          else delete req.headers['content-type'];
        }
        out.push(req);
      }
    }
    if (route.path.includes(':')) {
      const req = base('path', validBody());
      req.path = fillPath(route.path, s, rng, rng.pick(pathMutants));
      out.push(req);
    }
    const withQuery = base('query', validBody());
    withQuery.query = `?${rng.pick(queryMutants)}`;
    out.push(withQuery);
  }
  const oversized = base('huge-header', validBody());
  oversized.headers['x-fuzz'] = 'h'.repeat(17_000);
  out.push(oversized);
  const idempotent = base('idempotency-key', validBody());
  idempotent.headers['idempotency-key'] = rng.pick(['k'.repeat(300), '', ' ', 'cl\u00e9-\u00ff']);
  out.push(idempotent);
  for (let i = 0; i < validPerOperation; i++) out.push(base('valid', validBody()));
  return out;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

async function send(method: string, req: Request): Promise<Answer> {
  const res = await fetch(`${t.url}${req.path}${req.query}`, {
    method,
    headers: req.headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : req.body,
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** What is wrong with an answer, or null. */
function verdict(answer: Answer): string | null {
  if (answer.status >= 500) {
    // A server without an identity provider configured says so; that is documented, not a failure.
    if (answer.status === 503 && answer.text.includes('"idp_not_configured"')) return null;
    return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  }
  if (answer.status < 400) return null;
  if (!answer.contentType.includes('application/problem+json'))
    return `${answer.status} as ${answer.contentType}`;
  let problem: { code?: string; type?: string; detail?: string };
  try {
    problem = JSON.parse(answer.text);
  } catch {
    return `${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`;
  }
  const code = problem.code as (typeof errorCodes)[number];
  if (!errorCodes.includes(code)) return `unknown code ${problem.code}`;
  if (errorStatus[code] !== answer.status)
    return `${code} answered with ${answer.status}, not ${errorStatus[code]}`;
  if (typeof problem.detail !== 'string' || !problem.type?.endsWith(`/${code}`))
    return `malformed problem ${answer.text.slice(0, 200)}`;
  return null;
}

describe('contract-driven fuzzing of every operation', () => {
  it('answers every valid and mutated request below 500, every 4xx as problem+json with a known code', async () => {
    const rng = new Rng(seed);
    const ops = operations(contract as unknown as AppRouter);
    const started = Date.now();
    const byStatus: Record<number, number> = {};
    const byKind: Record<string, number> = {};
    const failures: string[] = [];
    for (const op of ops) {
      const s = await scene(rng);
      for (const req of requestsFor(op, s, rng)) {
        const answer = await send(op.route.method, req);
        byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
        byKind[req.kind] = (byKind[req.kind] ?? 0) + 1;
        const wrong = verdict(answer);
        if (wrong) {
          failures.push(
            `${op.name} ${op.route.method} ${req.path.slice(0, 120)}${req.query.slice(0, 60)} [${req.kind}] ${(req.body ?? '').slice(0, 120)}: ${wrong}`,
          );
        }
      }
    }
    const total = Object.values(byStatus).reduce((a, n) => a + n, 0);
    console.log(
      `fuzz (seed ${seed}): ${total} requests over ${ops.length} operations in ${Date.now() - started} ms\n  by status: ${JSON.stringify(byStatus)}\n  by kind: ${JSON.stringify(byKind)}`,
    );
    expect(ops.length).toBeGreaterThanOrEqual(79);
    expect(failures).toEqual([]);
    expect(t.logs().filter((l) => l.msg === 'unhandled error')).toEqual([]);
    // Valid inputs reached the handlers: successes are a good share of the answers.
    const successes = Object.entries(byStatus)
      .filter(([s]) => Number(s) < 300)
      .reduce((a, [, n]) => a + n, 0);
    expect(successes).toBeGreaterThan(ops.length);
  }, 600_000);

  it('still serves after the fuzzing', async () => {
    const res = await fetch(`${t.url}/healthz`);
    expect(res.status).toBe(200);
  });
});
