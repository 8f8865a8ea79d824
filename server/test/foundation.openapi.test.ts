import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorStatus, webhookEventTypes } from '@gathercast/contract';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/docs/openapi';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

const committedPath = path.resolve(__dirname, '../../docs/openapi.json');

/** Every path the public API serves, in OpenAPI form. */
const specPaths: [string, string][] = [
  ['post', '/v1/accounts/signup'],
  ['post', '/v1/accounts/login'],
  ['post', '/v1/accounts/logout'],
  ['get', '/v1/accounts/me'],
  ['post', '/v1/accounts/verify'],
  ['post', '/v1/accounts/request-password-reset'],
  ['post', '/v1/accounts/reset-password'],
  ['get', '/v1/auth/idp/start'],
  ['get', '/v1/auth/idp/callback'],
  ['get', '/v1/public/events/{id}'],
  ['get', '/v1/public/events/{id}/table-summary'],
  ['get', '/v1/public/events/{id}/recap'],
  ['get', '/v1/public/events/{id}/content'],
  ['get', '/v1/public/assets/{id}'],
  ['post', '/v1/public/events/{id}/register'],
  ['post', '/v1/public/events/{id}/enter'],
  ['post', '/v1/help/chat'],
  ['post', '/v1/auth/gateway-token'],
  ['post', '/v1/events/{id}/guest-session'],
  ['post', '/v1/workspaces/{id}/guest-integrations'],
  ['get', '/v1/workspaces/{id}/guest-integrations'],
  ['delete', '/v1/workspaces/{id}/guest-integrations/{integrationId}'],
  ['post', '/v1/workspaces'],
  ['get', '/v1/workspaces'],
  ['patch', '/v1/workspaces/{id}'],
  ['get', '/v1/workspaces/{id}/members'],
  ['patch', '/v1/workspaces/{id}/members/{memberId}'],
  ['delete', '/v1/workspaces/{id}/members/{memberId}'],
  ['delete', '/v1/workspaces/{id}/members/me'],
  ['post', '/v1/workspaces/{id}/session'],
  ['get', '/v1/workspaces/{id}/api-keys'],
  ['post', '/v1/workspaces/{id}/api-keys'],
  ['delete', '/v1/workspaces/{id}/api-keys/{keyId}'],
  ['post', '/v1/api-keys'],
  ['post', '/v1/workspaces/{id}/invites'],
  ['get', '/v1/workspaces/{id}/invites'],
  ['get', '/v1/invites/{token}'],
  ['post', '/v1/invites/{token}/accept'],
  ['delete', '/v1/workspaces/{id}/invites/{inviteId}'],
  ['post', '/v1/events'],
  ['get', '/v1/events'],
  ['get', '/v1/events/{id}'],
  ['patch', '/v1/events/{id}'],
  ['delete', '/v1/events/{id}'],
  ['post', '/v1/events/{id}/publish'],
  ['post', '/v1/events/{id}/start'],
  ['post', '/v1/events/{id}/advance'],
  ['post', '/v1/events/{id}/end'],
  ['post', '/v1/events/{id}/phases'],
  ['patch', '/v1/phases/{id}'],
  ['post', '/v1/phases/{id}/extend'],
  ['get', '/v1/users'],
  ['post', '/v1/users'],
  ['post', '/v1/events/{id}/memberships'],
  ['get', '/v1/events/{id}/memberships'],
  ['get', '/v1/events/{id}/memberships/{membershipId}'],
  ['delete', '/v1/events/{id}/memberships/{membershipId}'],
  ['get', '/v1/events/{id}/questions'],
  ['post', '/v1/events/{id}/broadcast/start'],
  ['post', '/v1/events/{id}/broadcast/pause'],
  ['post', '/v1/webhooks'],
  ['get', '/v1/webhooks'],
  ['patch', '/v1/webhooks/{id}'],
  ['delete', '/v1/webhooks/{id}'],
  ['post', '/v1/webhooks/{id}/rotate-secret'],
  ['post', '/v1/webhooks/{id}/test'],
  ['get', '/v1/webhooks/{id}/deliveries'],
  ['post', '/v1/webhooks/{id}/deliveries/{deliveryId}/retry'],
  ['post', '/v1/events/{id}/recordings'],
  ['post', '/v1/events/{id}/transcripts'],
  ['post', '/v1/recordings/{id}/clips'],
];

type Schema = Record<string, unknown>;
type Response = {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Schema; example?: unknown }>;
};
type Operation = {
  operationId?: string;
  tags?: string[];
  description?: string;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema; example?: unknown }> };
  responses: Record<string, Response>;
};
type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, Schema>;
    responses: Record<string, Response>;
  };
};

describe('the OpenAPI document', () => {
  const generated = buildOpenApiDocument() as unknown as Doc;
  // Shared problem responses are references into components.responses: read through them.
  const resolve = (r: Response | { $ref: string }): Response =>
    '$ref' in r ? generated.components.responses[r.$ref.replace('#/components/responses/', '')]! : r;
  const operations = Object.entries(generated.paths).flatMap(([p, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${p}`,
      op: {
        ...op,
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [status, resolve(r)]),
        ),
      },
    })),
  );
  const byId = (id: string) => operations.find(({ op }) => op.operationId === id)!.op;

  it('is committed at docs/openapi.json exactly as the contract generates it (run `pnpm openapi`)', () => {
    const committed = JSON.parse(readFileSync(committedPath, 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(generated)));
  });

  it('is OpenAPI 3.1 with info.version 1.0.0', () => {
    expect(generated.openapi).toBe('3.1.0');
    expect(generated.info.version).toBe('1.0.0');
  });

  it.each(specPaths)('documents %s %s', (method, p) => {
    expect(generated.paths[p]?.[method]).toBeDefined();
  });

  it('leaves the development helpers out', () => {
    expect(Object.keys(generated.paths).filter((p) => p.startsWith('/v1/dev'))).toEqual([]);
    expect(operations.filter(({ op }) => op.tags?.includes('dev'))).toEqual([]);
  });

  it('gives every operation a unique operationId, a tag, and a description saying who may call it', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { name, op } of operations) {
      expect(op.tags?.length, name).toBe(1);
      expect(op.description, name).toMatch(/\*\*Who may call:\*\* \S/);
      expect(op.description!.split('\n\n')[0]!.length, name).toBeGreaterThan(30);
    }
  });

  it('lists per operation only the problem codes it can answer, each status with its codes as an enum', () => {
    for (const { name, op } of operations) {
      expect(op.responses['501'], name).toBeUndefined();
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const media = response.content!['application/problem+json']!;
        const [base, narrowed] = media.schema.allOf as Schema[];
        expect(base).toEqual({ $ref: '#/components/schemas/Problem' });
        const codes = ((narrowed!.properties as Record<string, Schema>).code!.enum as string[]) ?? [];
        expect(codes.length, `${name} ${status}`).toBeGreaterThan(0);
        for (const code of codes)
          expect(errorStatus[code as keyof typeof errorStatus], `${name} ${code}`).toBe(Number(status));
      }
    }
    const codesOf = (id: string, status: string) =>
      (
        (byId(id).responses[status]!.content!['application/problem+json']!.schema.allOf as Schema[])[1]!
          .properties as Record<string, Schema>
      ).code!.enum;
    expect(codesOf('events.start', '409')).toEqual(['conflict', 'invalid_state', 'idempotency_key_reused']);
    expect(codesOf('workspaces.create', '409')).toEqual(['conflict', 'slug_taken', 'idempotency_key_reused']);
    expect(byId('events.list').responses['409']).toBeUndefined();
    expect(byId('accounts.me').responses['404']).toBeUndefined();
  });

  it('shares problem responses several operations answer alike as named components', () => {
    const raw = generated.paths['/v1/events']!.get!.responses as Record<string, unknown>;
    expect(raw['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(generated.components.responses.Unauthorized!.headers).toHaveProperty('WWW-Authenticate');
    const refs = JSON.stringify(generated.paths).match(/#\/components\/responses\/\w+/g) ?? [];
    for (const ref of refs) expect(resolve({ $ref: ref }), ref).toBeDefined();
  });

  it('makes Problem.code an enum of every public code', () => {
    expect(generated.components.schemas.Problem!.properties).toMatchObject({
      code: { $ref: '#/components/schemas/ErrorCode' },
    });
    expect(generated.components.schemas.ErrorCode!.enum).toContain('invalid_state');
    expect(generated.components.schemas.ErrorCode!.enum).not.toContain('not_implemented');
  });

  it('marks required request bodies required, and only those', () => {
    expect(byId('accounts.signup').requestBody?.required).toBe(true);
    expect(byId('events.create').requestBody?.required).toBe(true);
    expect(byId('events.advance').requestBody?.required).toBeUndefined();
  });

  it('names the resources as component schemas and references them', () => {
    for (const name of [
      'Event',
      'EventWithPhases',
      'Phase',
      'Workspace',
      'ApiKey',
      'WebhookEndpoint',
      'Invite',
      'Member',
    ]) {
      expect(generated.components.schemas[name], name).toBeDefined();
    }
    expect(byId('events.get').responses['200']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/EventWithPhases',
    });
    expect(byId('events.create').responses['201']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/Event',
    });
  });

  it('documents timestamps as date-time and nullable fields as JSON Schema null types', () => {
    const event = generated.components.schemas.Event!.properties as Record<string, Schema>;
    expect(event.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect(event.startedAt).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(JSON.stringify(generated)).not.toContain('"nullable"');
  });

  it('gives every JSON request and success response an example', () => {
    for (const { name, op } of operations) {
      const body = op.requestBody?.content['application/json'];
      if (body) expect(body.example, name).toBeDefined();
      for (const [status, response] of Object.entries(op.responses)) {
        const media =
          response.content?.['application/json'] ?? response.content?.['application/problem+json'];
        if (media) expect(media.example, `${name} ${status}`).toBeDefined();
      }
    }
  });

  it('declares x-request-id on every response, Retry-After on 429 and WWW-Authenticate on 401', () => {
    for (const { name, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.['x-request-id'], `${name} ${status}`).toBeDefined();
        if (status === '429') expect(response.headers?.['Retry-After'], name).toBeDefined();
        if (status === '401') expect(response.headers?.['WWW-Authenticate'], name).toBeDefined();
      }
    }
  });

  it('declares the RateLimit-* headers on the rate-limited operations', () => {
    for (const id of ['public.helpChat', 'accounts.login']) {
      expect(Object.keys(byId(id).responses['200']!.headers!)).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
      expect(Object.keys(byId(id).responses['429']!.headers!)).toContain('RateLimit-Remaining');
    }
    // Every call with a credential spends the API budgets (docs/limits.md).
    expect(Object.keys(byId('events.list').responses['200']!.headers!)).toContain('RateLimit-Limit');
    expect(Object.keys(byId('events.list').responses['429']!.headers!)).toContain('Retry-After');
  });

  it('names the API key scope of every operation a key can call', () => {
    const scopeOf = (id: string) => (byId(id) as Record<string, unknown>)['x-required-scope'];
    expect(scopeOf('events.create')).toBe('events:write');
    expect(scopeOf('eventLog.list')).toBe('webhooks:read');
    expect(scopeOf('accounts.login')).toBeUndefined();
  });

  it('describes all 11 webhook deliveries with their payload schemas', () => {
    expect(Object.keys(generated.webhooks).sort()).toEqual([...webhookEventTypes].sort());
    for (const [type, { post }] of Object.entries(generated.webhooks)) {
      const media = post.requestBody!.content['application/json']!;
      const ref = (media.schema as { $ref: string }).$ref;
      const schema = generated.components.schemas[ref.split('/').pop()!]!;
      expect((schema.properties as Record<string, Schema>).type!.enum, type).toEqual([type]);
      expect((media.example as { type: string }).type).toBe(type);
    }
  });

  it('declares the four security schemes', () => {
    expect(Object.keys(generated.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'bearerSession',
      'platformKey',
      'sessionCookie',
    ]);
  });
});

describe('serving the document', () => {
  let t: TestServer;
  useTestServer({}, (started) => {
    t = started;
  });

  it('serves the generated document at GET /v1/openapi.json', async () => {
    const res = await fetch(`${t.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect((await res.json()).info.version).toBe('1.0.0');
  });

  it('serves a reference page at GET /docs whose assets are all local', async () => {
    const res = await fetch(`${t.url}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('/')).toBe(true);
      const asset = await fetch(`${t.url}${ref}`);
      expect(asset.status, ref).toBe(200);
    }
  });
});

describe('error type URIs', () => {
  let t: TestServer;
  useTestServer({}, (started) => {
    t = started;
  });

  it('resolve to a page explaining the code', async () => {
    const problem = await (await fetch(`${t.url}/v1/nope`)).json();
    const page = await fetch(problem.type);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('not_found');
  });
});
