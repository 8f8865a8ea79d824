import type { EntityManager } from '@mikro-orm/postgresql';
import * as oidc from 'openid-client';
import type { Config } from '../config';
import { problem } from '../lib/problem';
import { createAccountSession } from '../identity/sessions';
import { sql } from '../db/sql';
import { hashSecret } from '../lib/secrets';
import { createWorkspace } from '../workspaces/service';
import { accountView, findAccountByEmail } from './account-view';
import type { SignedIn } from './service';
import { insertAccount } from './service';

const attemptLifetimeMs = 10 * 60 * 1000;

/**
 * Identity-provider sign-in with openid-client: authorization code flow with state, nonce and PKCE.
 * The provider's metadata is discovered on first use (and again after a failed discovery).
 */
export class IdentityProvider {
  private discovered?: Promise<oidc.Configuration>;

  constructor(private readonly config: Config) {}

  get configured(): boolean {
    return !!this.config.oidc;
  }

  get callbackUrl(): string {
    return `${this.config.publicBaseUrl}/v1/auth/idp/callback`;
  }

  private configuration(): Promise<oidc.Configuration> {
    const settings = this.config.oidc;
    if (!settings) throw problem('idp_not_configured', 'Identity-provider sign-in is not configured on this service');
    this.discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        undefined,
        // A plain-http issuer is only ever a local one (development and tests).
        settings.issuer.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err) => {
        this.discovered = undefined;
        throw problem('service_unavailable', `The identity provider could not be reached: ${(err as Error).message}`);
      });
    return this.discovered;
  }

  /** Stores the attempt (PKCE verifier server-side, keyed by the state's hash) and returns where to send the browser. */
  async start(em: EntityManager, returnTo: string): Promise<{ redirectTo: string; state: string }> {
    const configuration = await this.configuration();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await sql(em, 'delete from idp_login where expires_at < now()');
    await sql(em, 'insert into idp_login (state_hash, code_verifier, nonce, return_to, expires_at) values (?, ?, ?, ?, ?)', [
      hashSecret(state),
      codeVerifier,
      nonce,
      returnTo,
      new Date(Date.now() + attemptLifetimeMs),
    ]);
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl,
      scope: 'openid email profile',
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { redirectTo: url.href, state };
  }

  /**
   * Checks the state against the browser's state cookie and the stored attempt (single use), then
   * exchanges the code and signs the verified email's account in, creating it when new.
   */
  async finish(
    em: EntityManager,
    input: { callbackUrl: URL; state?: string; browserState?: string; error?: string; errorDescription?: string },
  ): Promise<SignedIn & { returnTo: string }> {
    const configuration = await this.configuration();
    if (!input.state || !input.browserState || input.state !== input.browserState) {
      throw problem('invalid_token', 'The sign-in state does not match this browser; start again');
    }
    const [attempt] = await sql<{ code_verifier: string; nonce: string; return_to: string }>(
      em,
      'delete from idp_login where state_hash = ? and expires_at > now() returning code_verifier, nonce, return_to',
      [hashSecret(input.state)],
    );
    if (!attempt) throw problem('invalid_token', 'The sign-in state is unknown, expired or already used; start again');
    if (input.error) {
      throw problem('unauthorized', `The identity provider did not sign you in: ${input.error}${input.errorDescription ? ` (${input.errorDescription})` : ''}`);
    }
    let profile: { email?: unknown; email_verified?: unknown; name?: unknown };
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, input.callbackUrl, {
        pkceCodeVerifier: attempt.code_verifier,
        expectedState: input.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      profile = (claims.email ? claims : await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)) as typeof profile;
    } catch (err) {
      throw problem('unauthorized', `The identity provider's answer was refused: ${(err as Error).message}`);
    }
    if (typeof profile.email !== 'string' || profile.email_verified !== true) {
      throw problem('unauthorized', 'The identity provider did not vouch for a verified email address');
    }
    const email = profile.email.toLowerCase();
    const name = typeof profile.name === 'string' && profile.name.trim() ? profile.name.trim() : email.split('@')[0]!;
    const accountId = await em.transactional(async (tx) => {
      const existing = await findAccountByEmail(tx, email);
      if (existing) {
        await sql(tx, 'update account_email set verified_at = coalesce(verified_at, now()) where email = ?', [email]);
        return existing.id;
      }
      const id = await insertAccount(tx, { email, name, passwordHash: null, verified: true });
      await createWorkspace(tx, id, { name: `${name}'s workspace` });
      return id;
    });
    const session = await createAccountSession(em, accountId);
    return { account: await accountView(em, accountId), session, returnTo: attempt.return_to };
  }
}
