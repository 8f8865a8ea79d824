import type { ApiScope } from '@gathercast/contract';
import type { Request } from 'express';
import { problem } from './problem';
import type { SessionKind } from './secrets';

/** A caller's standing in the workspace a call resolved to. */
export type WorkspaceAccess = 'owner' | 'admin' | 'member' | 'apiKey';

/** The caller of a workspace-scoped service call, free of HTTP types. */
export interface Actor {
  workspaceId: string;
  access: WorkspaceAccess;
  /** Set for account sessions (not for API keys). */
  accountId?: string;
  apiKeyId?: string;
}

/** A caller by API key. */
export interface ApiKeyCaller {
  id: string;
  workspaceId: string;
  scopes: ApiScope[];
  /** The one event the key is restricted to. */
  eventId: string | null;
}

/** A caller by session (cookie or Bearer). */
export interface SessionCaller {
  id: string;
  kind: SessionKind;
  accountId: string | null;
  workspaceId: string | null;
  eventId: string | null;
  subjectId: string | null;
  data: Record<string, unknown>;
  expiresAt: Date;
  /** Whether it came from the gc_session cookie (CSRF checks apply) or a Bearer header. */
  viaCookie: boolean;
  /** Set when the sliding lifetime was renewed on this request, so the cookie is re-issued. */
  renewed: boolean;
  /** The account's role in `memberRoleWorkspace`, read in the same query (null: not a member). */
  memberRole: 'owner' | 'admin' | 'member' | null;
  memberRoleWorkspace: string | null;
}

/**
 * Who is calling and, for workspace routes, on which workspace with which standing: what
 * `http/auth.ts` resolved into `req.auth`. Services that serve callers without a workspace (public
 * views, gateway tokens) read it; it carries no HTTP types.
 */
export interface RequestAuth {
  apiKey?: ApiKeyCaller;
  session?: SessionCaller;
  platform: boolean;
  /** The account behind an account session. */
  accountId?: string;
  workspaceId?: string;
  access?: WorkspaceAccess;
}

/** For handlers of routes whose policy resolved a workspace (member, admin, memberSession, apiKey). */
// Only `auth` is read, so a ts-rest request (whose parsed query Express's type refuses) fits as is.
export function actorOf(req: Pick<Request, 'auth'>): Actor {
  const { workspaceId, access, accountId, apiKey } = req.auth;
  if (!workspaceId || !access) throw problem('unauthorized', 'No workspace was resolved for this call');
  return { workspaceId, access, accountId, apiKeyId: apiKey?.id };
}

export const isAdmin = (actor: Actor) => actor.access !== 'member';
