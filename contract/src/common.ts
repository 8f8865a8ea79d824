import { type ContractNoBodyType, initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errorCodes } from './errors';

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
}

export const meta = (metadata: RouteMetadata) => metadata;

export const uuid = z.string().uuid();
export const timestamp = z.string().datetime({ offset: true });
/** Timestamps in responses are ISO 8601 strings. */
export const isoTimestamp = z.string();

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
