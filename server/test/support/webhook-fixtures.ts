import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { hashSecret, newSecret, secretPrefixes } from '../../src/lib/secrets';

export interface WorkspaceFixture {
  workspaceId: string;
  apiKey: string;
}

/**
 * A workspace and an API key inserted straight into the database (until the identity routes can
 * create them); the key is stored as its SHA-256 like the real thing.
 */
export async function createWorkspaceWithKey(databaseUrl: string, name = 'Webhooks test'): Promise<WorkspaceFixture> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const workspaceId = randomUUID();
    const apiKey = newSecret(secretPrefixes.apiKey);
    await client.query('insert into workspace (id, name, slug) values ($1, $2, $3)', [
      workspaceId,
      name,
      `ws-${workspaceId.slice(0, 8)}`,
    ]);
    await client.query('insert into api_key (id, workspace_id, name, secret_hash) values ($1, $2, $3, $4)', [
      randomUUID(),
      workspaceId,
      'test',
      hashSecret(apiKey),
    ]);
    return { workspaceId, apiKey };
  } finally {
    await client.end();
  }
}

/**
 * Checks a received delivery the way a receiver would: HMAC-SHA256 of "<t>.<raw body>" under any of
 * the secrets, |now - t| <= 300 s, and x-gc-event-id equal to the body's id. Returns the parsed body.
 * (Independent of the server's signer; the verifier package replaces it once it is on main.)
 */
export function verifyDelivery(
  received: { headers: Record<string, string | string[] | undefined>; body: string },
  secrets: string[],
): Record<string, unknown> {
  const header = String(received.headers['x-gc-signature'] ?? '');
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) throw new Error(`bad timestamp in ${header}`);
  const given = parts.filter(([k]) => k === 'v1').map(([, v]) => v);
  const ok = secrets.some((s) => {
    const expected = createHmac('sha256', Buffer.from(s, 'utf8')).update(`${t}.${received.body}`, 'utf8').digest();
    return given.some((g) => {
      const b = Buffer.from(g, 'hex');
      return b.length === expected.length && timingSafeEqual(b, expected);
    });
  });
  if (!ok) throw new Error('signature mismatch');
  const body = JSON.parse(received.body) as Record<string, unknown>;
  if (received.headers['x-gc-event-id'] !== body.id) throw new Error('x-gc-event-id differs from the body id');
  return body;
}
