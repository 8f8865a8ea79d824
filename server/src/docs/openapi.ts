import { type AccessPolicy, contract, type RouteMetadata } from '@gathercast/contract';
import { generateOpenApi } from '@ts-rest/open-api';
import type { AppRoute } from '@ts-rest/core';
import { ExampleBuilder, requestExamples } from './openapi-examples';
import {
  problemCodesOf,
  problemComponents,
  problemResponses,
  rateLimitHeaders,
  requestIdHeader,
  shareProblemResponses,
  takesBody,
} from './openapi-problems';
import { defaultsOptional, extractNamedSchemas, toJsonSchemaNulls } from './openapi-schemas';
import { webhookSchemas, webhooksSection } from './openapi-webhooks';

type Json = Record<string, unknown>;
type Operation = Json & { responses: Record<string, Json>; parameters?: unknown[]; requestBody?: Json };

const securityFor: Record<AccessPolicy, Record<string, string[]>[]> = {
  public: [],
  account: [{ sessionCookie: [] }, { bearerSession: [] }],
  accountOrPlatform: [{ sessionCookie: [] }, { bearerSession: [] }, { platformKey: [] }],
  member: [{ apiKey: [] }, { sessionCookie: [] }, { bearerSession: [] }],
  admin: [{ apiKey: [] }, { sessionCookie: [] }, { bearerSession: [] }],
  memberSession: [{ sessionCookie: [] }, { bearerSession: [] }],
  apiKey: [{ apiKey: [] }],
};

/** "Who may call" in every operation's description, from the route's access policy. */
const whoMayCall: Record<AccessPolicy, string> = {
  public: 'Anyone; no credentials needed.',
  account: 'A signed-in account: the `gc_session` cookie or its `gcs_` token as `Authorization: Bearer`.',
  accountOrPlatform: 'A signed-in account, or the platform operator with `x-platform-key`.',
  member:
    'Any member of the workspace: its API key (`x-api-key`), or the session of a member (name the workspace with `x-workspace-id` when the account has several).',
  admin: 'The workspace’s API key, or the session of an owner or admin of the workspace.',
  memberSession: 'The account session of a workspace member (not an API key).',
  apiKey: 'A workspace API key (`x-api-key`) only.',
};

const successText: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted: the work is queued',
  '204': 'Done; no body',
  '302': 'Redirect (see the `Location` header)',
};

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
  registrations: 'Registrants of an event: questions, approval, the waiting list, CSV export',
  registrant: 'What a registrant does with their personal link: cancel, the calendar invite (no credentials)',
  attendance: 'Who came, when and for how long, and the event’s engagement, after it ends',
  polls: 'Live poll results with exact counts (docs: audience records)',
  reactions: 'Live reaction totals per emoji (docs: audience records)',
  chat: 'The live chat log (docs: audience records)',
  webhooks: 'Webhook endpoints, the delivery log, and the deliveries themselves (see `webhooks`)',
  eventLog: 'The integration feed: every notification of the workspace in sequence order (30 days)',
  broadcast: 'Broadcast streaming',
  content: 'Recordings, transcripts and clips',
  liveTokens: 'Gateway tokens minted by your backend for your users (docs/embed.md)',
  liveJoinLinks: 'Personal, revocable join links that answer a fresh gateway token',
  liveParticipants: 'Who is in the live room; remove, ban, mute',
  liveRoom: 'Chat lock, slow mode, deleting chat lines and questions',
};

/** Tag names as people read them (`x-displayName`: the reference shows these, the ids stay in URLs). */
const tagNames: Record<string, string> = {
  accounts: 'Accounts',
  idp: 'Single sign-on',
  public: 'Public pages and registration',
  gateway: 'Gateway tokens',
  guestIntegrations: 'Guest integrations',
  workspaces: 'Workspaces',
  members: 'Members',
  apiKeys: 'API keys',
  invites: 'Invites',
  events: 'Events',
  phases: 'Phases',
  users: 'Users',
  memberships: 'Event memberships',
  questions: 'Questions',
  registrations: 'Registrations',
  registrant: 'Registrant links',
  attendance: 'Attendance',
  polls: 'Polls',
  reactions: 'Reactions',
  chat: 'Chat log',
  webhooks: 'Webhooks',
  eventLog: 'Event log',
  broadcast: 'Broadcasts',
  content: 'Recordings and content',
  liveTokens: 'Live tokens',
  liveJoinLinks: 'Join links',
  liveParticipants: 'Live participants',
  liveRoom: 'Live room',
};

/** The reference's navigation: tags in groups, in the order an integrator meets them (`x-tagGroups`). */
const tagGroups: { name: string; tags: string[] }[] = [
  { name: 'Get started', tags: ['accounts', 'idp', 'workspaces', 'members', 'apiKeys', 'invites'] },
  {
    name: 'Events',
    tags: ['events', 'phases', 'users', 'memberships', 'registrations', 'registrant', 'public'],
  },
  {
    name: 'Live',
    tags: [
      'gateway',
      'guestIntegrations',
      'liveTokens',
      'liveJoinLinks',
      'liveParticipants',
      'liveRoom',
      'questions',
      'broadcast',
    ],
  },
  { name: 'After the event', tags: ['attendance', 'polls', 'reactions', 'chat', 'content'] },
  { name: 'Integrations', tags: ['webhooks', 'eventLog'] },
];

const apiDescription = `Schedule and run live online events: workspaces, API keys, events with an agenda of phases, a live gateway, broadcasts, recordings and signed webhooks.

**Authentication.** Server-side code sends a workspace API key in \`x-api-key\`. A key holds scopes (\`*\` for everything, the default); each operation names the scope it needs (**API key scope**, and \`x-required-scope\`), and a key without it answers 403 \`forbidden\` naming the scope. A key can be restricted to one event. People sign in with a session (the \`gc_session\` cookie, or its token as \`Authorization: Bearer\`). The first API key of a workspace is returned once, when the workspace is created; create more with \`POST /v1/workspaces/{id}/api-keys\`.

**Errors** are \`application/problem+json\` with \`type\` (a page explaining the code), a stable \`code\`, a human \`detail\`, \`errors[]\` for \`bad_request\`, and \`requestId\`. Every operation lists the codes it can answer. Every 401 carries \`WWW-Authenticate\`. A known path called with a method it does not take answers 405 \`method_not_allowed\` with \`Allow\`.

**Request ids.** Every response carries \`x-request-id\` (an incoming one is kept when it is 1–128 of \`A-Za-z0-9._:-\`); problem bodies repeat it as \`requestId\`.

**Retries.** Every POST accepts \`Idempotency-Key\`: the same key and body within 24 hours replays the first answer. Every call with a credential spends a per-credential and a per-workspace budget (reads and writes counted apart); rate-limited operations answer \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and \`RateLimit-Policy\`, and 429 \`rate_limited\` with \`Retry-After\`.`;

const { dev: _dev, ...publicContract } = contract;

/**
 * The OpenAPI 3.1 document, generated from the contract by ts-rest and completed here: descriptions
 * with who may call, per-operation problem responses, named schemas, examples, headers, security from
 * each route's access metadata, and the webhooks. Development helpers (`dev`) are left out.
 */
export function buildOpenApiDocument(): Json {
  const doc = generateOpenApi(
    publicContract,
    {
      info: {
        title: 'Gathercast API',
        version: '1.0.0',
        description: apiDescription,
        contact: { name: 'Gathercast', url: 'https://github.com/gathercast/gathercast' },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'The server this document is served from' }],
      tags: Object.entries(tagDescriptions).map(([name, description]) => ({
        name,
        'x-displayName': tagNames[name] ?? name,
        description,
      })),
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation, route) => completeOperation(operation as Operation, route) as never,
    },
  ) as Json & { components?: Json };

  const schemas = extractNamedSchemas(doc);
  const components: Json & { schemas: Json } = {
    schemas: { ...schemas, ...webhookSchemas(), ...problemComponents.schemas },
    headers: problemComponents.headers,
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'The same key and body within 24 h replays the first answer; another body answers 409 `idempotency_key_reused`',
        schema: { type: 'string', maxLength: 255 },
      },
    },
    securitySchemes: {
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Workspace API key (`gck_…`)' },
      sessionCookie: {
        type: 'apiKey',
        in: 'cookie',
        name: 'gc_session',
        description: 'Account session cookie',
      },
      bearerSession: {
        type: 'http',
        scheme: 'bearer',
        description: 'Session token (`gcs_`, `gcw_`, `gcg_`, `gce_`)',
      },
      platformKey: {
        type: 'apiKey',
        in: 'header',
        name: 'x-platform-key',
        description: 'Platform operator key',
      },
    },
  };
  const paths = toJsonSchemaNulls(doc.paths) as Parameters<typeof shareProblemResponses>[0];
  const responses = shareProblemResponses(paths);
  const document: Json = {
    openapi: '3.1.0',
    info: doc.info,
    servers: doc.servers,
    tags: doc.tags,
    'x-tagGroups': tagGroups,
    paths,
    webhooks: webhooksSection(),
    components: { ...components, schemas: toJsonSchemaNulls(components.schemas), responses },
  };
  addExamples(document);
  return document;
}

function completeOperation(op: Operation, route: AppRoute): Operation {
  const meta = route.metadata as RouteMetadata | undefined;
  const access = meta?.access ?? 'public';
  const rateLimited = problemCodesOf(route).includes('rate_limited');
  const responses: Record<string, Json> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    if (Number(status) >= 400) continue;
    const headers: Json = { ...requestIdHeader, ...(rateLimited ? rateLimitHeaders : {}) };
    if (status === '302')
      headers.Location = { description: 'Where the browser goes next', schema: { type: 'string' } };
    responses[status] = {
      ...response,
      description: response.description === status ? (successText[status] ?? status) : response.description,
      headers,
    };
  }
  Object.assign(responses, problemResponses(route));
  op.responses = responses;
  const scope = meta?.scope;
  op.description = [
    route.description ?? route.summary,
    `**Who may call:** ${whoMayCall[access]}`,
    scope
      ? `**API key scope:** \`${scope}\` (or \`*\`${scope.endsWith(':read') ? `, or \`${scope.replace(/:read$/, ':write')}\`` : ''}).`
      : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  op.security = securityFor[access];
  // The scope an API key needs, machine-readable (Spectral refuses scopes on an apiKey security scheme).
  if (scope) op['x-required-scope'] = scope;
  if (op.requestBody) {
    defaultsOptional(op.requestBody.content);
    op.requestBody.description = 'JSON body';
    if (takesBody(route) && !(route as { body: { isOptional(): boolean } }).body.isOptional())
      op.requestBody.required = true;
  }
  const params = op.parameters ?? [];
  if (meta?.workspace === 'context') {
    params.push({
      name: 'x-workspace-id',
      in: 'header',
      required: false,
      description: 'Session callers: the workspace to act on (optional when the account has one)',
      schema: { type: 'string', format: 'uuid' },
    });
  }
  if (route.method === 'POST') params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  op.parameters = params;
  if (!op.parameters.length) delete op.parameters;
  for (const key of Object.keys(op)) if (op[key] === undefined) delete op[key];
  return op;
}

/** Request and success-response examples for every operation (problem examples are set with their responses). */
function addExamples(document: Json): void {
  const builder = new ExampleBuilder((document.components as { schemas: Record<string, Json> }).schemas);
  for (const operations of Object.values(document.paths as Record<string, Record<string, Operation>>)) {
    for (const op of Object.values(operations)) {
      const body = (op.requestBody?.content as Record<string, Json> | undefined)?.['application/json'];
      if (body) body.example = requestExamples[op.operationId as string] ?? builder.of(body.schema, true);
      for (const [status, response] of Object.entries(op.responses)) {
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if (media && Number(status) < 400) media.example = builder.of(media.schema);
      }
    }
  }
}
