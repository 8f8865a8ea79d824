import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/http/openapi';
import { startTestServer, type TestServer } from './support/server';

const committedPath = path.resolve(__dirname, '../../docs/openapi.json');

/** Every path the specification (service-api.md) names, in OpenAPI form. */
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
  ['get', '/v1/dev/mailbox'],
];

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { operationId?: string; tags?: string[]; responses: Record<string, { content: Record<string, { schema: unknown }> }> }>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

describe('the OpenAPI document', () => {
  const generated = buildOpenApiDocument() as unknown as Doc;

  it('is committed at docs/openapi.json exactly as the contract generates it (run `pnpm openapi`)', () => {
    const committed = JSON.parse(readFileSync(committedPath, 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(generated)));
  });

  it('is OpenAPI 3 with info.version 1.0.0', () => {
    expect(generated.openapi).toMatch(/^3\./);
    expect(generated.info.version).toBe('1.0.0');
  });

  it.each(specPaths)('documents %s %s', (method, p) => {
    expect(generated.paths[p]?.[method]).toBeDefined();
  });

  it('gives every operation a unique operationId and a tag', () => {
    const ids = Object.values(generated.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.values(generated.paths).every((ops) => Object.values(ops).every((o) => o.tags?.length === 1))).toBe(
      true,
    );
  });

  it('describes every error response as application/problem+json referencing Problem', () => {
    expect(generated.components.schemas.Problem).toBeDefined();
    for (const ops of Object.values(generated.paths)) {
      for (const op of Object.values(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          expect(response.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
        }
      }
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

  it('lints clean with Redocly’s recommended rules', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // Public routes have no security requirement by design.
        'security-defined': 'off',
        // Some responses (redirects, 204) have no body; 4xx are described per code.
        'operation-4xx-response': 'off',
        // The identity-provider routes answer 302 redirects by design.
        'operation-2xx-response': 'off',
      },
    });
    const problems = await lintFromString({
      source: JSON.stringify(generated),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = problems.filter((p) => p.severity === 'error');
    const warnings = problems.filter((p) => p.severity === 'warn');
    expect(errors.map((p) => `${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`)).toEqual([]);
    expect(warnings.map((p) => `${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`)).toEqual([]);
  });
});

describe('serving the document', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

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
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('resolve to a page explaining the code', async () => {
    const problem = await (await fetch(`${t.url}/v1/nope`)).json();
    const page = await fetch(problem.type);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('not_found');
  });
});
