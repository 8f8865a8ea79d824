// The machine's limit: a bare `ws` server that does only what a join and a fan-out cannot avoid.
// It verifies the same ES256 gateway tokens with the server's public keys (expiry tolerated: the
// tokens were issued earlier in the run), sends a welcome of the same size as the server's, and
// when the host sends a message broadcasts the message the server sent for it (fresh `sentAt`).
// No database, no presence, no webhooks, no sequence numbers.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, type JWK, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { type WebSocket, WebSocketServer } from 'ws';
import { marker } from './crowd';

const keys = JSON.parse(process.env.BASELINE_KEYS!) as { kid: string; jwk: JWK }[];
const welcomeBytes = Number(process.env.BASELINE_WELCOME_BYTES);
/** The server's message for each host message k, as a viewer received it. */
const templates = JSON.parse(process.env.BASELINE_TEMPLATES!) as string[];

const publicKeys = new Map<string, Awaited<ReturnType<typeof importJWK>>>();
for (const { kid, jwk } of keys) publicKeys.set(kid, await importJWK(jwk, 'ES256'));
const keyFor: JWTVerifyGetKey = (header) => {
  const key = header.kid ? publicKeys.get(header.kid) : undefined;
  if (!key) throw new Error('unknown key');
  return key as CryptoKey;
};

const viewers = new Set<WebSocket>();
const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 });
const http = createServer((_req, res) => res.writeHead(404).end());

function welcomeFor(claims: Record<string, unknown>): string {
  const base = {
    type: 'welcome',
    identity: {
      participantId: claims.participantId,
      name: claims.name,
      role: claims.role,
      anonymous: claims.anonymous,
    },
    event: { id: claims.eventId },
    pad: '',
  };
  const length = Buffer.byteLength(JSON.stringify(base));
  return JSON.stringify({ ...base, pad: 'x'.repeat(Math.max(0, welcomeBytes - length)) });
}

function broadcast(from: WebSocket, raw: string): void {
  const p = raw.indexOf(marker);
  if (p < 0) return;
  const k = Number.parseInt(raw.slice(p + marker.length), 10);
  const template = templates[k];
  if (!template) return;
  const message = JSON.parse(template) as Record<string, unknown>;
  if ('sentAt' in message) message.sentAt = new Date().toISOString();
  const data = JSON.stringify(message);
  for (const ws of viewers) if (ws !== from) ws.send(data);
}

http.on('upgrade', (req, socket, head) => {
  const token = new URL(req.url ?? '/', 'http://localhost').searchParams.get('token') ?? '';
  jwtVerify(token, keyFor, {
    issuer: 'gathercast',
    audience: 'gathercast-live',
    algorithms: ['ES256'],
    clockTolerance: 3600,
  }).then(
    ({ payload }) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        viewers.add(ws);
        ws.on('close', () => viewers.delete(ws));
        ws.on('message', (data) => {
          if (payload.role === 'host') broadcast(ws, String(data));
        });
        ws.send(welcomeFor(payload));
      }),
    () => {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
    },
  );
});

// The server's own listen backlog, so that both queue a burst of connections alike.
http.listen(0, '127.0.0.1', 4096, () => process.send?.({ ready: (http.address() as AddressInfo).port }));
process.on('SIGTERM', () => process.exit(0));
process.on('disconnect', () => process.exit(0));
