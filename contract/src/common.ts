import { type ContractNoBodyType, initContract } from '@ts-rest/core';
import { z } from 'zod';
import { type ErrorCode, errorCodes, fieldErrorCodes } from './errors';

/** Module-local: each contract file builds its routes with its own `initContract()`. */
const c = initContract();

/** Who may call a route. The server's one authorization middleware reads this from route metadata. */
export type AccessPolicy =
  /** No credentials needed (a session is still read where the route uses it, e.g. private public views). */
  | 'public'
  /** An account session: the `gc_session` cookie or a `gcs_` Bearer token. */
  | 'account'
  /** An account session, or a valid `x-platform-key`. */
  | 'accountOrPlatform'
  /** Any member of the workspace: its API key, or a session of a member. */
  | 'member'
  /** The workspace's API key, or a session of an owner or admin. */
  | 'admin'
  /** The session of a member (not an API key). */
  | 'memberSession'
  /** A workspace API key only. */
  | 'apiKey';

/**
 * What an API key may do. A key holds a list of scopes (`*`: everything, the default, so keys made
 * before scopes existed keep working); every route an API key can call names the one scope it needs
 * in its metadata, and the server's authorization refuses a key without it (403 `forbidden`).
 * A `:write` scope includes the `:read` scope of the same resource.
 */
export const apiScopes = [
  '*',
  'events:read',
  'events:write',
  'people:read',
  'people:write',
  'registrations:read',
  'registrations:write',
  'content:read',
  'content:write',
  'webhooks:read',
  'webhooks:write',
  'live:tokens',
  'workspace:read',
  'workspace:write',
] as const;
export type ApiScope = (typeof apiScopes)[number];
export const apiScopeSchema = z.enum(apiScopes);

/** The scopes that grant `scope`: itself, `*`, and for a `:read` scope its `:write` sibling. */
export function scopesGranting(scope: ApiScope): ApiScope[] {
  const granting: ApiScope[] = ['*', scope];
  if (scope.endsWith(':read')) granting.push(scope.replace(/:read$/, ':write') as ApiScope);
  return granting;
}

/** Policies an API key can pass: their routes must name a scope (a missing one fails the typecheck). */
export type KeyAccessPolicy = 'member' | 'admin' | 'apiKey';

interface RouteMetadataBase {
  /**
   * Where the workspace comes from: `path` reads the `id` path parameter of `/v1/workspaces/:id/...`;
   * `context` uses the API key's workspace, or `x-workspace-id` for sessions.
   */
  workspace?: 'path' | 'context';
  /**
   * `false`: `Idempotency-Key` is accepted but no answer is kept for replay, because the route must
   * not store what it is sent (help chat) and repeating it changes nothing.
   */
  replayable?: false;
  /**
   * The problem codes this route answers beyond the ones every route of its kind can (bad input,
   * missing credentials, an unknown id in the path, a reused Idempotency-Key): e.g. `invalid_state`
   * for lifecycle calls. The OpenAPI document lists exactly these per operation.
   */
  errors?: readonly ErrorCode[];
}

export type RouteMetadata =
  | (RouteMetadataBase & {
      access: Exclude<AccessPolicy, KeyAccessPolicy>;
      scope?: undefined;
    })
  | (RouteMetadataBase & {
      access: KeyAccessPolicy;
      /** The scope an API key needs to call this route (sessions are governed by `access` alone). */
      scope: Exclude<ApiScope, '*'>;
    });

export const meta = (metadata: RouteMetadata) => metadata;

export const uuid = z.string().uuid();
/** Earliest and latest instants accepted: years 0001 to 9999 (PostgreSQL has no year 0). */
const earliestInstant = Date.parse('0001-01-01T00:00:00Z');
const latestInstant = Date.parse('9999-12-31T23:59:59.999Z');
const offsetPattern = /([+-])(\d{2}):?(\d{2})$/;

/** An RFC 3339 date-time that can be stored: offset within ±15:59, instant in years 0001 to 9999. */
function storableTimestamp(value: string): boolean {
  const offset = offsetPattern.exec(value);
  if (offset && (Number(offset[2]) > 15 || Number(offset[3]) > 59)) return false;
  const instant = Date.parse(value.replace(offsetPattern, (_m, sign, h, m) => `${sign}${h}:${m}`));
  return Number.isFinite(instant) && instant >= earliestInstant && instant <= latestInstant;
}

export const timestamp = z
  .string()
  .datetime({ offset: true })
  .refine(storableTimestamp, 'Must be a date-time in years 0001 to 9999 with a UTC offset within ±15:59');
/** Timestamps in responses: ISO 8601 in UTC (`2026-11-24T18:30:00.000Z`), documented as `date-time`. */
export const isoTimestamp = z.string().datetime({ offset: true });

export const idParams = z.object({ id: uuid });

export const errorCodeSchema = z.enum(errorCodes);

export const problemSchema = z
  .object({
    type: z.string().describe('{errors_base}/<code>: a page describing the problem type'),
    title: z.string().describe('RFC 9457: the code in words (`Invalid state`), the same for every occurrence'),
    status: z.number().int().describe('RFC 9457: the HTTP status code, repeated for logs and proxies'),
    code: z.string().describe('Stable machine-readable code; branch on this and the HTTP status'),
    detail: z.string().describe('Human-readable, about this occurrence; the text may change'),
    errors: z
      .array(
        z.object({
          path: z
            .string()
            .describe(
              'Where the invalid value is: the part of the request (`body`, `query`, `params` for the path, `headers`), then the field, dot-separated (`body.title`, `body.phases.0.config.roomSize`, `query.cursor`, `headers.idempotency-key`)',
            ),
          code: z.enum(fieldErrorCodes).describe('Stable: what is wrong with the field'),
          message: z.string().describe('Human-readable; the text may change'),
        }),
      )
      .optional()
      .describe('bad_request only: one entry per invalid field'),
    requestId: z
      .string()
      .optional()
      .describe('The request id (the same as the x-request-id response header); quote it when reporting a problem'),
  })
  .passthrough();
export type Problem = z.infer<typeof problemSchema>;

export const problemResponse = c.otherResponse({
  contentType: 'application/problem+json',
  body: problemSchema,
});

/** Every route may answer these; routes add their own success responses. */
export const commonErrors = {
  400: problemResponse,
  401: problemResponse,
  403: problemResponse,
  404: problemResponse,
  409: problemResponse,
  413: problemResponse,
  415: problemResponse,
  429: problemResponse,
  500: problemResponse,
  501: problemResponse,
  503: problemResponse,
} as const;

export const noContent: ContractNoBodyType = c.noBody();

export const paginationQuery = z.object({
  cursor: z.string().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

/**
 * The answer of every cursor list: the items under the list's own key, and `nextCursor` (null on the
 * last page). The SDK iterates every route that takes `cursor` and answers this shape (`for await`).
 */
export const cursorPage = <K extends string, T extends z.ZodTypeAny>(key: K, item: T) =>
  z.object({ [key]: z.array(item), nextCursor: z.string().nullable() } as {
    [P in K]: z.ZodArray<T>;
  } & { nextCursor: z.ZodNullable<z.ZodString> });

/** How a cursor list pages, said the same way in every list's description. */
export const pagingRule =
  'Up to `limit` (default and maximum 100) per page; pass `nextCursor` back as `cursor` for the next page (null on the last).';

export const eventRoles = ['host', 'speaker', 'participant', 'viewer', 'workspace_admin'] as const;
export const eventRoleSchema = z.enum(eventRoles);
export type EventRole = z.infer<typeof eventRoleSchema>;

export const workspaceRoles = ['owner', 'admin', 'member'] as const;
export const workspaceRoleSchema = z.enum(workspaceRoles);
export type WorkspaceRole = z.infer<typeof workspaceRoleSchema>;

export const metadataSchema = z.record(z.string(), z.unknown());
