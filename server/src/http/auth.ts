import type { RouteMetadata } from '@gathercast/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config';
import type { Queryable } from '../db/pool';
import { safeEqual } from '../lib/secrets';
import type { CredentialCache } from '../lib/credential-cache';
import { readCookie, sessionCookieName, setSessionCookie } from './cookies';
import { findApiKey, findMemberRole, findSession, onlyWorkspaceOf } from './credentials';
import type { RequestAuth } from '../lib/actor';
import { checkKeyScope } from './key-scopes';
import { invalidField, problem } from '../lib/problem';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearerToken(req: Request): string | undefined {
  const h = req.header('authorization');
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : undefined;
}

function allowedOrigins(config: Config): Set<string> {
  return new Set([new URL(config.publicBaseUrl).origin, ...config.corsOrigins]);
}

/**
 * Resolves credentials, then applies the route's access policy (contract metadata). Runs before
 * request validation, so a caller without access never learns which input would have been valid.
 */
export function authenticate(config: Config, db: Queryable, cache: CredentialCache) {
  const origins = allowedOrigins(config);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const meta = (req as Request & { tsRestRoute?: { metadata?: RouteMetadata } }).tsRestRoute?.metadata;
      const policy = meta?.access ?? 'public';
      const auth: RequestAuth = { platform: false };
      req.auth = auth;

      const platformKey = req.header('x-platform-key');
      if (platformKey && config.platformKey && safeEqual(platformKey, config.platformKey)) auth.platform = true;

      const apiKey = req.header('x-api-key');
      if (apiKey !== undefined) {
        const found = await findApiKey(db, cache, apiKey);
        if (!found) throw problem('unauthorized', 'The API key is unknown or revoked');
        auth.apiKey = found;
      }

      const bearer = bearerToken(req);
      const cookie = readCookie(req, sessionCookieName);
      const workspaceHint = namedWorkspace(policy, meta, req);
      if (bearer) {
        const s = await findSession(db, cache, bearer, false, workspaceHint);
        if (!s && policy !== 'public') throw problem('unauthorized', 'The session token is unknown or expired');
        if (s) auth.session = s;
      } else if (cookie) {
        // A stale cookie on a public route is ignored rather than refused.
        const s = await findSession(db, cache, cookie, true, workspaceHint);
        if (s?.kind === 'account') {
          auth.session = s;
          if (s.renewed) setSessionCookie(res, cookie, config.secureCookies);
        }
      }
      if (auth.session?.kind === 'account') auth.accountId = auth.session.accountId ?? undefined;

      if (auth.session?.viaCookie && !safeMethods.has(req.method)) {
        const origin = req.header('origin');
        if (origin && !origins.has(origin)) {
          throw problem('csrf_rejected', `Cookie-authenticated writes from origin ${origin} are not allowed`);
        }
      }

      await applyPolicy(policy, meta, req, auth, db);
      if (auth.apiKey && auth.access === 'apiKey') checkKeyScope(auth.apiKey, meta, req);
      next();
    } catch (err) {
      next(err);
    }
  };
}

async function applyPolicy(
  policy: RouteMetadata['access'],
  meta: RouteMetadata | undefined,
  req: Request,
  auth: RequestAuth,
  db: Queryable,
): Promise<void> {
  switch (policy) {
    case 'public':
      return;
    case 'account':
      if (!auth.accountId) throw problem('unauthorized', 'Sign in first: this route needs an account session');
      return;
    case 'accountOrPlatform':
      if (auth.platform || auth.accountId) return;
      throw problem('unauthorized', 'Sign in first, or send a valid x-platform-key');
    case 'apiKey':
      if (!auth.apiKey) throw problem('unauthorized', 'This route needs an x-api-key header');
      auth.workspaceId = auth.apiKey.workspaceId;
      auth.access = 'apiKey';
      return;
    case 'member':
    case 'admin':
    case 'memberSession':
      await resolveWorkspace(policy, meta, req, auth, db);
      return;
  }
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The workspace a workspace-scoped route names up front (path or x-workspace-id), if any. */
function namedWorkspace(policy: RouteMetadata['access'], meta: RouteMetadata | undefined, req: Request): string | null {
  if (policy !== 'member' && policy !== 'admin' && policy !== 'memberSession') return null;
  const named = meta?.workspace === 'path' ? req.params.id : req.header('x-workspace-id');
  return named && uuidShape.test(named) ? named : null;
}

async function resolveWorkspace(
  policy: 'member' | 'admin' | 'memberSession',
  meta: RouteMetadata | undefined,
  req: Request,
  auth: RequestAuth,
  db: Queryable,
): Promise<void> {
  const fromPath = meta?.workspace === 'path' ? req.params.id : undefined;
  if (auth.apiKey) {
    if (policy === 'memberSession') throw problem('forbidden', 'This route needs an account session, not an API key');
    // Another workspace's resources look exactly like missing ones.
    if (fromPath !== undefined && fromPath !== auth.apiKey.workspaceId) throw problem('not_found', 'Workspace not found');
    auth.workspaceId = auth.apiKey.workspaceId;
    auth.access = 'apiKey';
    return;
  }
  if (!auth.session) throw problem('unauthorized', 'Send an x-api-key header or sign in');
  if (!auth.accountId) throw problem('forbidden', 'This session cannot manage workspaces');

  let workspaceId = fromPath ?? req.header('x-workspace-id') ?? undefined;
  if (!workspaceId) {
    workspaceId = (await onlyWorkspaceOf(db, auth.accountId)) ?? undefined;
    if (!workspaceId) {
      throw invalidField(
        'headers.x-workspace-id',
        'required',
        'Required when the account has several workspaces',
        'Name the workspace with the x-workspace-id header',
      );
    }
  }
  if (!uuidShape.test(workspaceId)) throw problem('not_found', 'Workspace not found');
  const role =
    auth.session.memberRoleWorkspace === workspaceId
      ? auth.session.memberRole
      : await findMemberRole(db, workspaceId, auth.accountId);
  if (!role) throw problem('not_found', 'Workspace not found');
  if (policy === 'admin' && role === 'member') {
    throw problem('forbidden', 'Only workspace owners and admins may do this');
  }
  auth.workspaceId = workspaceId;
  auth.access = role;
}
