import { createPublicKey, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import {
  createRemoteJWKSet,
  customFetch,
  type FetchImplementation,
  importSPKI,
  type JWTVerifyGetKey,
} from 'jose';
import { invalidField } from '../lib/problem';
import { blockedReason } from '../lib/outbound-guard';
import { jwksFetch } from './jwks-fetch';

/** The only algorithm partner JWTs may use (spec: RS256). */
export const partnerAlgorithm = 'RS256';
/** Smaller RSA keys are refused: 2048 bits is the floor every current guideline sets. */
const minModulusBits = 2048;
/** Remote key sets are kept this long, then fetched again (a new kid refetches sooner). */
const jwksCacheMaxAgeMs = 10 * 60 * 1000;
/** At most this often a JWT naming an unknown kid makes us fetch the key set again. */
const jwksCooldownMs = 30 * 1000;
const jwksTimeoutMs = 5000;
/** Bounded caches: one entry per integration (PEM) or per URL (JWKS). */
const maxCachedKeys = 1000;

const badField = (path: 'publicKeyPem' | 'jwksUrl', message: string) =>
  invalidField(`body.${path}`, 'invalid_value', message);

/**
 * Checks that a PEM is an SPKI ("BEGIN PUBLIC KEY") RSA public key of at least 2048 bits that jose
 * imports for RS256; returns it trimmed. Anything else (PKCS#1 "RSA PUBLIC KEY", certificates, EC or
 * Ed25519 keys, private keys, garbage) is 400 bad_request.
 */
export async function validatePublicKeyPem(input: string): Promise<string> {
  const pem = input.trim();
  if (!/^-----BEGIN PUBLIC KEY-----\r?\n[\s\S]+\r?\n-----END PUBLIC KEY-----$/.test(pem)) {
    throw badField('publicKeyPem', 'must be an SPKI PEM ("-----BEGIN PUBLIC KEY-----")');
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem', type: 'spki' });
  } catch {
    throw badField('publicKeyPem', 'is not a valid SPKI public key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw badField('publicKeyPem', 'must be an RSA public key (RS256)');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < minModulusBits)
    throw badField('publicKeyPem', `RSA keys must have at least ${minModulusBits} bits`);
  try {
    await importSPKI(pem, partnerAlgorithm);
  } catch {
    throw badField('publicKeyPem', 'is not usable for RS256');
  }
  return pem;
}

/**
 * https only (http too with WEBHOOK_ALLOW_INSECURE_URLS), no credentials in the URL, and, unless
 * insecure URLs are allowed, no localhost or private/reserved IP literal (names are checked again,
 * after DNS, at every fetch).
 */
export function checkJwksUrl(url: string, allowInsecure: boolean): string {
  const u = new URL(url);
  if (allowInsecure ? !['https:', 'http:'].includes(u.protocol) : u.protocol !== 'https:') {
    throw badField('jwksUrl', 'must be an https:// URL');
  }
  if (u.username || u.password) throw badField('jwksUrl', 'must not carry credentials');
  if (u.hash) throw badField('jwksUrl', 'must not have a fragment');
  if (!allowInsecure) {
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (host === 'localhost' || host.endsWith('.localhost'))
      throw badField('jwksUrl', 'must not point at localhost');
    if (isIP(host) && blockedReason(host)) {
      throw badField('jwksUrl', 'must not point at a private, loopback or reserved address');
    }
  }
  return u.toString();
}

export interface IntegrationKeySource {
  id: string;
  jwksUrl: string | null;
  publicKeyPem: string | null;
}

/**
 * Verification keys of partner integrations, cached per process: an integration's PEM never changes
 * (so its imported key is kept by integration id), and remote key sets are shared per URL with jose's
 * own caching (max age, cooldown, refetch on an unknown kid). Whether an integration is still active
 * is read from the database on every exchange, so revocation never waits for a cache.
 */
export class PartnerKeys {
  readonly #pems = new Map<string, CryptoKey>();
  readonly #jwks = new Map<string, JWTVerifyGetKey>();
  readonly #fetch: FetchImplementation;

  constructor(allowInsecure: boolean) {
    this.#fetch = jwksFetch(allowInsecure);
  }

  async keyFor(source: IntegrationKeySource): Promise<CryptoKey | JWTVerifyGetKey> {
    if (source.publicKeyPem !== null) {
      let key = this.#pems.get(source.id);
      if (!key) {
        key = await importSPKI(source.publicKeyPem, partnerAlgorithm);
        remember(this.#pems, source.id, key);
      }
      return key;
    }
    const url = source.jwksUrl!;
    let set = this.#jwks.get(url);
    if (!set) {
      set = createRemoteJWKSet(new URL(url), {
        cacheMaxAge: jwksCacheMaxAgeMs,
        cooldownDuration: jwksCooldownMs,
        timeoutDuration: jwksTimeoutMs,
        [customFetch]: this.#fetch,
      });
      remember(this.#jwks, url, set);
    }
    return set;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= maxCachedKeys) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
