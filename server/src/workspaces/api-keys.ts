import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { problem } from '../lib/problem';
import { iso, sql } from '../db/sql';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';

export interface ApiKeyView {
  id: string;
  workspaceId: string;
  name: string | null;
  status: 'active' | 'revoked';
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const columns = 'id, workspace_id, name, created_at, last_used_at, revoked_at';

const view = (r: ApiKeyRow): ApiKeyView => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  status: r.revoked_at ? 'revoked' : 'active',
  createdAt: iso(r.created_at)!,
  lastUsedAt: iso(r.last_used_at),
  revokedAt: iso(r.revoked_at),
});

/** A gck_ key: 256 random bits; the secret is returned here once and only its SHA-256 is kept. */
export async function createApiKey(
  em: EntityManager,
  workspaceId: string,
  name: string | null,
): Promise<ApiKeyView & { secret: string }> {
  const secret = newSecret(secretPrefixes.apiKey);
  const rows = await sql<ApiKeyRow>(
    em,
    `insert into api_key (id, workspace_id, name, secret_hash) values (?, ?, ?, ?) returning ${columns}`,
    [randomUUID(), workspaceId, name, hashSecret(secret)],
  );
  return { ...view(rows[0]!), secret };
}

/** Every key of the workspace, revoked ones included (kept for audit), newest first. */
export async function listApiKeys(em: EntityManager, workspaceId: string): Promise<ApiKeyView[]> {
  const rows = await sql<ApiKeyRow>(
    em,
    `select ${columns} from api_key where workspace_id = ? order by created_at desc, id`,
    [workspaceId],
  );
  return rows.map(view);
}

/**
 * First call revokes (the key fails on the very next request: authentication reads the row every
 * time), a second call on a revoked key deletes it for good.
 */
export async function deleteApiKey(em: EntityManager, workspaceId: string, keyId: string): Promise<'revoked' | 'removed'> {
  const revoked = await sql(em, 'update api_key set revoked_at = now() where id = ? and workspace_id = ? and revoked_at is null returning id', [
    keyId,
    workspaceId,
  ]);
  if (revoked.length) return 'revoked';
  const removed = await sql(em, 'delete from api_key where id = ? and workspace_id = ? returning id', [keyId, workspaceId]);
  if (removed.length) return 'removed';
  throw problem('not_found', 'API key not found');
}
