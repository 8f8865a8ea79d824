import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookMiddleware } from '../dist/express.js';
import { reference, SECRET } from './helpers';

const received: unknown[] = [];
let server: Server;
let base: string;

function app(): express.Express {
  const app = express();
  app.post('/webhooks', webhookMiddleware(express, { secret: SECRET }), (req, res) => {
    received.push(req.webhookEvent);
    res.status(204).end();
  });
  app.post(
    '/custom',
    webhookMiddleware(express, {
      secret: SECRET,
      onError: (error, _req, res) => {
        res.statusCode = 401;
        res.end(error.code);
      },
    }),
    (_req, res) => {
      res.status(204).end();
    },
  );
  // A receiver that parses JSON globally before the webhook route: the classic mistake.
  const late = express.Router();
  late.use(express.json());
  late.post('/webhooks', webhookMiddleware(express, { secret: SECRET }), (_req, res) => {
    res.status(204).end();
  });
  app.use('/late', late);
  app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ message: error.message });
  });
  return app;
}

beforeAll(async () => {
  server = app().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

async function deliver(path: string, body: string, signature: string): Promise<Response> {
  return fetch(base + path, {
    method: 'POST',
    body,
    headers: { ...reference.headers, 'content-type': 'application/json', 'x-gc-signature': signature },
  });
}

async function freshSignature(body = reference.body): Promise<string> {
  const { signSync } = await import('../dist/node.js');
  return signSync({ secret: SECRET, payload: body });
}

describe('Express middleware (@gathercast/webhook-verifier/express)', () => {
  it('sets req.webhookEvent and calls the route for a verified delivery', async () => {
    const response = await deliver('/webhooks', reference.body, await freshSignature());
    expect(response.status).toBe(204);
    expect(received.at(-1)).toEqual(JSON.parse(reference.body));
  });

  it('answers 400 with the error code for a delivery that does not verify', async () => {
    const response = await deliver('/webhooks', `${reference.body}\n`, await freshSignature());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'signature_mismatch' } });
  });

  it('answers 400 timestamp_out_of_tolerance for a replayed delivery', async () => {
    const response = await deliver('/webhooks', reference.body, reference.headers['x-gc-signature']);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'timestamp_out_of_tolerance',
    );
  });

  it('lets onError answer failures its own way', async () => {
    const response = await deliver('/custom', `${reference.body} `, await freshSignature());
    expect([response.status, await response.text()]).toEqual([401, 'signature_mismatch']);
  });

  it('passes a 500-worthy error to next() when express.json() consumed the body first', async () => {
    const response = await deliver('/late/webhooks', reference.body, await freshSignature());
    expect(response.status).toBe(500);
    expect(((await response.json()) as { message: string }).message).toContain('express.json()');
  });

  it('refuses to be built without the express module', () => {
    expect(() => webhookMiddleware({} as typeof express, { secret: SECRET })).toThrow(TypeError);
  });
});
