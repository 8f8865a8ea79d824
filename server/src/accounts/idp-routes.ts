import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { AppContext } from '../lib/context';
import { readCookie, setSessionCookie } from '../http/cookies';
import { invalidField, problem } from '../lib/problem';
import { IdentityProvider } from './idp';

const s = initServer();

const stateCookie = 'gc_idp_state';
const statePath = '/v1/auth/idp';

/** Only paths on this service: an absolute or protocol-relative returnTo would be an open redirect. */
function safeReturnTo(returnTo: string | undefined): string {
  if (returnTo === undefined) return '/';
  if (!returnTo.startsWith('/') || returnTo.startsWith('//') || returnTo.includes('\\')) {
    throw invalidField(
      'query.returnTo',
      'invalid_value',
      'must start with a single /',
      'returnTo must be a path on this service',
    );
  }
  return returnTo;
}

export function idpRoutes(ctx: AppContext) {
  const idp = new IdentityProvider(ctx.config);
  const notConfigured = () => problem('idp_not_configured', 'Identity-provider sign-in is not configured on this service');
  return s.router(contract.idp, {
    start: async ({ query, req, res }) => {
      if (!idp.configured) throw notConfigured();
      const { redirectTo, state } = await idp.start(req.em, safeReturnTo(query.returnTo));
      // Binds the attempt to this browser, so a callback link cannot sign someone else in.
      res.cookie(stateCookie, state, { httpOnly: true, sameSite: 'lax', path: statePath, secure: ctx.config.secureCookies, maxAge: 600_000 });
      res.setHeader('location', redirectTo);
      return { status: 302, body: undefined };
    },
    callback: async ({ query, req, res }) => {
      if (!idp.configured) throw notConfigured();
      res.clearCookie(stateCookie, { path: statePath });
      const result = await idp.finish(req.em, {
        callbackUrl: new URL(req.originalUrl, ctx.config.publicBaseUrl),
        state: query.state,
        browserState: readCookie(req, stateCookie),
        error: query.error,
        errorDescription: query.error_description,
      });
      setSessionCookie(res, result.session.token, ctx.config.secureCookies);
      res.setHeader('location', `${ctx.config.publicBaseUrl}${result.returnTo}`);
      return { status: 302, body: undefined };
    },
  });
}
