import { type ContractNoBodyType, initContract } from '@ts-rest/core';
import { z } from 'zod';
import { type ErrorCode, errorCodes } from './errors';

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

export interface RouteMetadata {
  access: AccessPolicy;
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
    type: z.string().describe('{errors_base}/<code>'),
    code: z.string().describe('Stable machine-readable code; branch on this and the HTTP status'),
    detail: z.string().describe('Human-readable; the text may change'),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
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

export const eventRoles = ['host', 'speaker', 'participant', 'viewer', 'workspace_admin'] as const;
export const eventRoleSchema = z.enum(eventRoles);
export type EventRole = z.infer<typeof eventRoleSchema>;

export const workspaceRoles = ['owner', 'admin', 'member'] as const;
export const workspaceRoleSchema = z.enum(workspaceRoles);
export type WorkspaceRole = z.infer<typeof workspaceRoleSchema>;

export const metadataSchema = z.record(z.string(), z.unknown());
