import type { lookup as dnsLookup } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { BlockedTargetError, blockedReason, guardedLookup } from '../lib/outbound-guard';

export interface SendResult {
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  /** The first 1 KiB of the response body. */
  body: string | null;
  durationMs: number;
  /** timeout, connection error or blocked target; null when a response arrived in time. */
  error: string | null;
}

export const responseBodyLogBytes = 1024;
/** A response body is drained up to this size (so the connection can be reused), then cut off. */
const maxDrainBytes = 256 * 1024;

/**
 * POSTs webhook bodies over keep-alive agents. Unless insecure targets are allowed, every
 * connection goes through the SSRF guard's lookup, which pins the checked address. Redirects are
 * never followed (node:http does not follow them).
 */
export class WebhookHttpClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  /** `resolve` replaces DNS (tests of the pinning); the guard checks whatever it answers. */
  constructor(
    private readonly allowInsecure: boolean,
    resolve?: typeof dnsLookup,
  ) {
    // One agent per scheme for the process: sockets stay open between attempts to the same host and
    // port, so DNS and the guard run once per new connection, not once per delivery.
    const common = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' as const };
    const lookup = allowInsecure ? undefined : guardedLookup(resolve);
    this.httpAgent = new http.Agent({ ...common, lookup });
    this.httpsAgent = new https.Agent({ ...common, lookup });
  }

  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult> {
    const started = performance.now();
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
      ...r,
      durationMs: Math.round(performance.now() - started),
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve(done({ status: null, body: null, error: 'invalid URL' }));
    }
    const isHttps = target.protocol === 'https:';
    if (!isHttps && !(this.allowInsecure && target.protocol === 'http:')) {
      return Promise.resolve(
        done({ status: null, body: null, error: `blocked target: ${target.protocol} URLs are not allowed` }),
      );
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowInsecure && isIP(host)) {
      // IP literals never reach the lookup, so they are checked here.
      const reason = blockedReason(host);
      if (reason)
        return Promise.resolve(
          done({ status: null, body: null, error: new BlockedTargetError(host, reason).message }),
        );
    }

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      const payload = Buffer.from(body, 'utf8');
      const req = (isHttps ? https : http).request(
        {
          protocol: target.protocol,
          hostname: host,
          port: target.port || (isHttps ? 443 : 80),
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          headers: { ...headers, 'content-length': String(payload.length) },
          servername: isHttps && !isIP(host) ? host : undefined,
        },
        (res: IncomingMessage) =>
          readResponse(res, (text) => finish({ status: res.statusCode ?? null, body: text, error: null })),
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish({ status: null, body: null, error: `timeout: no response within ${timeoutMs} ms` });
      }, timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        const message =
          err instanceof BlockedTargetError
            ? err.message
            : `connection error: ${err.code ?? ''} ${err.message}`.trim();
        finish({ status: null, body: null, error: message });
      });
      req.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** Keeps the first 1 KiB of the body; reports once the body has ended (or was cut off). */
function readResponse(res: IncomingMessage, onDone: (text: string) => void): void {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let seen = 0;
  let reported = false;
  const report = () => {
    if (reported) return;
    reported = true;
    onDone(Buffer.concat(kept).toString('utf8'));
  };
  res.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (keptBytes < responseBodyLogBytes) {
      const part = chunk.subarray(0, responseBodyLogBytes - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (seen > maxDrainBytes) {
      res.destroy();
      report();
    }
  });
  res.on('end', report);
  res.on('error', report);
  res.on('close', report);
}
