import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { FetchImplementation } from 'jose';
import { BlockedTargetError, blockedReason, guardedLookup } from '../lib/outbound-guard';

/** A JWKS larger than this is refused (real key sets are a few KiB). */
const maxJwksBytes = 256 * 1024;

/**
 * The fetch jose uses for partner JWKS URLs. Partners choose these URLs, so unless insecure URLs are
 * allowed (WEBHOOK_ALLOW_INSECURE_URLS, development and tests) every connection goes through the
 * webhook SSRF guard, which resolves the host once, refuses loopback/private/link-local/reserved
 * addresses and pins the checked address. Redirects are not followed; the body is size-capped.
 */
export function jwksFetch(allowInsecure: boolean): FetchImplementation {
  const lookup = allowInsecure ? undefined : guardedLookup();
  const agents = {
    'http:': new http.Agent({ keepAlive: false, lookup }),
    'https:': new https.Agent({ keepAlive: false, lookup }),
  };
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const host = target.hostname.replace(/^\[|\]$/g, '');
      if (target.protocol !== 'https:' && !(allowInsecure && target.protocol === 'http:')) {
        return reject(new Error(`${target.protocol} JWKS URLs are not allowed`));
      }
      if (!allowInsecure && isIP(host)) {
        // IP literals never reach the lookup, so they are checked here.
        const reason = blockedReason(host);
        if (reason) return reject(new BlockedTargetError(host, reason));
      }
      const isHttps = target.protocol === 'https:';
      const headers: Record<string, string> = { accept: 'application/jwk-set+json, application/json' };
      options.headers.forEach((value, name) => {
        headers[name] = value;
      });
      const req = (isHttps ? https : http).get(
        url,
        {
          agent: agents[target.protocol as 'http:' | 'https:'],
          headers,
          signal: options.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxJwksBytes) {
              res.destroy(new Error(`JWKS larger than ${maxJwksBytes} bytes`));
              return;
            }
            chunks.push(chunk);
          });
          res.on('error', reject);
          res.on('end', () =>
            resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 502 })),
          );
        },
      );
      req.on('error', reject);
    });
}
