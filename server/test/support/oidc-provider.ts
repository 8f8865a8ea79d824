import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

/**
 * A real OpenID provider (oidc-provider) on a loopback port. Its login/consent step is automated:
 * the interaction signs in `nextIdentity`, or refuses with access_denied when `deny` is set.
 */
export class TestOpenIdProvider {
  nextIdentity: TestIdentity = { sub: 'user-1', email: 'idp-user@example.test', emailVerified: true, name: 'Idp User' };
  deny = false;
  private identities = new Map<string, TestIdentity>();

  private constructor(
    readonly issuer: string,
    private readonly server: Server,
  ) {}

  static async start(clientId: string, clientSecret: string, redirectUri: string): Promise<TestOpenIdProvider> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const op = new TestOpenIdProvider(issuer, server);
    const provider = new Provider(issuer, {
      clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], response_types: ['code'], grant_types: ['authorization_code'] }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      cookies: { keys: ['test-cookie-key-0123456789abcdef'] },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx, sub) => {
        const who = op.identities.get(sub);
        if (!who) return undefined;
        return { accountId: sub, claims: async () => ({ sub, email: who.email, email_verified: who.emailVerified, name: who.name }) };
      },
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/interaction/')) {
        op.interact(provider, req, res).catch((err) => {
          res.statusCode = 500;
          res.end(String(err));
        });
        return;
      }
      provider.callback()(req, res);
    });
    return op;
  }

  private async interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (this.deny) {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user said no' });
      return;
    }
    const who = this.nextIdentity;
    this.identities.set(who.sub, who);
    const grant = new provider.Grant({ accountId: who.sub, clientId: details.params.client_id as string });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: who.sub }, consent: { grantId } });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** A tiny browser: follows redirects by hand and keeps cookies (one jar; every server is on 127.0.0.1). */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Follows redirects until `stopAt` matches the next location (returned without being fetched) or a non-redirect answer. */
  async follow(url: string, stopAt: (location: string) => boolean): Promise<{ location?: string; response: Response }> {
    let next = url;
    for (let hops = 0; hops < 20; hops++) {
      const response = await this.get(next);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response };
      const absolute = new URL(location, next).href;
      if (stopAt(absolute)) return { location: absolute, response };
      next = absolute;
    }
    throw new Error('too many redirects');
  }
}
