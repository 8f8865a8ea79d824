import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** A partner platform in tests: a real RS256 key pair that signs guest JWTs. */
export interface Partner {
  issuer: string;
  kid: string;
  publicKeyPem: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** A JWT with `sub`, `exp` (10 min) and `iss` set; `claims` add or override (undefined removes). */
  sign(
    claims?: Record<string, unknown>,
    options?: { expiresIn?: string | number; kid?: string },
  ): Promise<string>;
}

let n = 0;

export async function newPartner(issuer = `https://partner-${++n}.example.test`): Promise<Partner> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `key-${++n}`;
  return {
    issuer,
    kid,
    publicKeyPem: await exportSPKI(publicKey),
    privateKey,
    publicKey,
    async sign(claims = {}, options = {}) {
      const payload: JWTPayload = { iss: issuer, sub: `guest-${++n}`, ...claims };
      for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
      const jwt = new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? kid })
        .setIssuedAt();
      if (!('exp' in claims)) jwt.setExpirationTime(options.expiresIn ?? '10m');
      return jwt.sign(privateKey);
    },
  };
}

/** A tiny local JWKS server; `keys` can be changed between requests; counts its requests. */
export interface JwksServer {
  url: string;
  requests: number;
  keys: Partner[];
  status: number;
  close(): Promise<void>;
}

export async function serveJwks(keys: Partner[]): Promise<JwksServer> {
  const state = { requests: 0, keys, status: 200 };
  const server = http.createServer(async (_req, res) => {
    state.requests++;
    const jwks = await Promise.all(
      state.keys.map(async (p) => ({
        ...(await exportJWK(p.publicKey)),
        kid: p.kid,
        alg: 'RS256',
        use: 'sig',
      })),
    );
    res.writeHead(state.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: jwks }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as JwksServer;
}

/** PEMs that must be refused as partner keys. */
export function unusablePems() {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    ec: ec.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    rsa1024: small.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    pkcs1: rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    privateKey: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    garbage: '-----BEGIN PUBLIC KEY-----\nnot a key at all\n-----END PUBLIC KEY-----\n',
  };
}
