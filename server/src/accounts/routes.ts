import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { clientAddress } from '../http/client-address';
import type { AppContext } from '../lib/context';
import { clearSessionCookie, setSessionCookie } from '../http/cookies';
import { setRateLimitHeaders } from '../http/rate-limit-headers';
import { revokeSession } from '../identity/sessions';
import { accountView } from './account-view';
import { type AccountsDeps, login, requestPasswordReset, resetPassword, type SignedIn, signup, verifyAccountEmail } from './service';

const s = initServer();

const fifteenMinutes = 15 * 60;

export function accountsDeps(ctx: AppContext): AccountsDeps {
  return {
    config: ctx.config,
    emails: ctx.emails,
    logger: ctx.logger,
    loginFailures: {
      byEmail: ctx.rateLimits.limit({ keyPrefix: 'login_email', points: 10, durationSeconds: fifteenMinutes }),
      byAddress: ctx.rateLimits.limit({ keyPrefix: 'login_ip', points: 10, durationSeconds: fifteenMinutes }),
    },
  };
}

/** Sets the gc_session cookie and answers the account with the same token for Bearer callers. */
function signedIn(ctx: AppContext, res: Response, { account, session }: SignedIn) {
  setSessionCookie(res, session.token, ctx.config.secureCookies);
  return { ...account, sessionToken: session.token };
}


export function accountsRoutes(ctx: AppContext) {
  const deps = accountsDeps(ctx);
  return s.router(contract.accounts, {
    signup: async ({ body, req, res }) => {
      setRateLimitHeaders(res, await ctx.abuseLimits.consume('signup', { address: clientAddress(req), target: body.email }));
      const result = await signup(req.em, deps, body);
      return { status: 201, body: { ...signedIn(ctx, res, result), ...(result.verifyUrl ? { verifyUrl: result.verifyUrl } : {}) } };
    },
    login: async ({ body, req, res }) => {
      const { rateLimit, ...result } = await login(req.em, deps, { ...body, clientAddress: clientAddress(req) });
      setRateLimitHeaders(res, rateLimit);
      return { status: 200, body: signedIn(ctx, res, result) };
    },
    logout: async ({ req, res }) => {
      if (req.auth.session) {
        await revokeSession(req.em, req.auth.session.id);
        await ctx.credentialChanges.propagated();
      }
      clearSessionCookie(res, ctx.config.secureCookies);
      return { status: 204, body: undefined };
    },
    me: async ({ req }) => ({ status: 200, body: await accountView(req.em, req.auth.accountId!) }),
    verify: async ({ body, req }) => ({ status: 200, body: await verifyAccountEmail(req.em, body.token) }),
    requestPasswordReset: async ({ body, req, res }) => {
      const target = { address: clientAddress(req), target: body.email };
      setRateLimitHeaders(res, await ctx.abuseLimits.consume('password_reset', target));
      return { status: 200, body: await requestPasswordReset(req.em, deps, body.email) };
    },
    resetPassword: async ({ body, req }) => {
      const result = await resetPassword(req.em, { ...body, currentSessionId: req.auth.session?.id });
      // The account's other sessions end: on every process before this answer.
      await ctx.credentialChanges.propagated();
      return { status: 200, body: result };
    },
  });
}
