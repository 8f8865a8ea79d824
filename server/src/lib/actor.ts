import type { Request } from 'express';
import { problem } from './problem';

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

/** For handlers of routes whose policy resolved a workspace (member, admin, memberSession, apiKey). */
export function actorOf(req: Request): Actor {
  const { workspaceId, access, accountId, apiKey } = req.auth;
  if (!workspaceId || !access) throw problem('unauthorized', 'No workspace was resolved for this call');
  return { workspaceId, access, accountId, apiKeyId: apiKey?.id };
}

export const isAdmin = (actor: Actor) => actor.access !== 'member';
