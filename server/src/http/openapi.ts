import { type AccessPolicy, contract, type RouteMetadata } from '@gathercast/contract';
import { generateOpenApi } from '@ts-rest/open-api';

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>> };

const securityFor: Record<AccessPolicy, Record<string, string[]>[]> = {
  public: [],
  account: [{ sessionCookie: [] }, { bearerSession: [] }],
  accountOrPlatform: [{ sessionCookie: [] }, { bearerSession: [] }, { platformKey: [] }],
  member: [{ apiKey: [] }, { sessionCookie: [] }, { bearerSession: [] }],
  admin: [{ apiKey: [] }, { sessionCookie: [] }, { bearerSession: [] }],
  memberSession: [{ sessionCookie: [] }, { bearerSession: [] }],
  apiKey: [{ apiKey: [] }],
};

const statusText: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '302': 'Redirect',
  '400': 'Bad request (bad_request, role_not_on_event, invalid_token)',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not found',
  '409': 'Conflict',
  '413': 'Payload too large',
  '429': 'Rate limited (Retry-After)',
  '500': 'Internal error',
  '501': 'Not implemented yet',
  '503': 'Unavailable',
};

const problemRef = { $ref: '#/components/schemas/Problem' };

const tagDescriptions: Record<string, string> = {
  accounts: 'Sign-up, sign-in and the account',
  idp: 'Identity-provider sign-in',
  public: 'Public views, registration and help chat (no credentials)',
  gateway: 'Live-gateway tokens and guest sessions',
  guestIntegrations: 'Partners allowed to issue guest JWTs',
  workspaces: 'Workspaces and the workspace session bridge',
  members: 'Workspace members',
  apiKeys: 'Workspace API keys',
  invites: 'Workspace and event invites',
  events: 'Events and their lifecycle',
  phases: 'Agenda phases',
  users: 'Pre-provisioned participant identities',
  memberships: 'Event roles of users',
  questions: 'Q&A',
  webhooks: 'Webhook endpoints and the delivery log',
  broadcast: 'Broadcast streaming',
  content: 'Recordings, transcripts and clips',
  dev: 'Development helpers (email dev mode)',
};

/**
 * The OpenAPI document, generated from the contract. ts-rest 3.52 drops problem+json bodies, so
 * every error response is rewritten to reference one `Problem` schema, and security comes from
 * each route's access metadata.
 */
export function buildOpenApiDocument(): Record<string, unknown> {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'Gathercast API',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
        version: '1.0.0',
        description:
          'Schedule and run live online events. Errors are application/problem+json with a stable `code`.',
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation, route) => {
        const op = operation as Operation;
        const metadata = route.metadata as RouteMetadata | undefined;
        for (const [status, response] of Object.entries(op.responses)) {
          if (response.description === status) response.description = statusText[status] ?? status;
          if (Number(status) >= 400) {
            op.responses[status] = {
              description: response.description,
              content: { 'application/problem+json': { schema: problemRef } },
            };
          }
        }
        const security = securityFor[metadata?.access ?? 'public'];
        op.security = security;
        if (metadata?.workspace === 'context') {
          const params = (op.parameters as unknown[]) ?? [];
          params.push({
            name: 'x-workspace-id',
            in: 'header',
            required: false,
            description: 'Session callers: the workspace to act on (optional when the account has one)',
            schema: { type: 'string', format: 'uuid' },
          });
          op.parameters = params;
        }
        if (route.method === 'POST') {
          const params = (op.parameters as unknown[]) ?? [];
          params.push({ $ref: '#/components/parameters/IdempotencyKey' });
          op.parameters = params;
        }
        return op;
      },
    },
  ) as Record<string, unknown> & { components?: Record<string, Record<string, unknown>> };

  dropUntypedNullable(doc.paths);
  doc.components ??= {};
  const components = doc.components;
  components.schemas = {
    ...(components.schemas ?? {}),
    Problem: {
      type: 'object',
      required: ['type', 'code', 'detail'],
      properties: {
        type: { type: 'string', format: 'uri', description: '{errors_base}/<code>' },
        code: { type: 'string', description: 'Stable machine-readable code' },
        detail: { type: 'string', description: 'Human-readable; the text may change' },
        errors: {
          type: 'array',
          description: 'bad_request only: one entry per invalid field',
          items: {
            type: 'object',
            required: ['path', 'message'],
            properties: { path: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  };
  components.parameters = {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'The same key and body within 24 h replays the first answer',
      schema: { type: 'string', maxLength: 255 },
    },
  };
  components.securitySchemes = {
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Workspace API key (gck_…)' },
    sessionCookie: { type: 'apiKey', in: 'cookie', name: 'gc_session', description: 'Account session cookie' },
    bearerSession: { type: 'http', scheme: 'bearer', description: 'Session token (gcs_, gcw_, gcg_, gce_)' },
    platformKey: { type: 'apiKey', in: 'header', name: 'x-platform-key', description: 'Platform operator key' },
  };
  return doc;
}

/** `z.unknown()` renders as `{ nullable: true }`, which OpenAPI 3.0 forbids without a `type`; any value already admits null. */
function dropUntypedNullable(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) dropUntypedNullable(item);
    return;
  }
  const obj = node as Record<string, unknown>;
  if (obj.nullable === true && obj.type === undefined && obj.$ref === undefined) delete obj.nullable;
  for (const value of Object.values(obj)) dropUntypedNullable(value);
}
