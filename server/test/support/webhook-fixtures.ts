import { randomUUID } from 'node:crypto';
import { verifySync } from '@gathercast/webhook-verifier/node';
import pg from 'pg';
import { hashSecret, newSecret, secretPrefixes } from '../../src/lib/secrets';
import type { WorkspaceFixture } from './fixtures';

/** What the webhook tests need of a workspace: its id and an API key. */
export type WorkspaceWithKey = Pick<WorkspaceFixture, 'workspaceId' | 'apiKey'>;

/**
 * A workspace and an API key inserted straight into the database (until the identity routes can
 * create them); the key is stored as its SHA-256 like the real thing.
 */
export async function createWorkspaceWithKey(
  databaseUrl: string,
  name = 'Webhooks test',
): Promise<WorkspaceWithKey> {
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
 * Checks a received delivery the way a receiver would, with the published verifier
 * (`@gathercast/webhook-verifier`, built package): signature over the raw body under any of the
 * secrets, |now - t| <= 300 s, and x-gc-event-id equal to the body's id. Returns the parsed body;
 * throws the verifier's `WebhookVerificationError` otherwise.
 */
export function verifyDelivery(
  received: { headers: Record<string, string | string[] | undefined>; body: string },
  secrets: string | string[],
): Record<string, unknown> {
  return verifySync(received.body, received.headers, secrets) as unknown as Record<string, unknown>;
}
