import { randomUUID } from 'node:crypto';
import { type ApiScope, scopesGranting } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { problem } from '../lib/problem';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { iso, sql } from '../db/sql';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';
import { ofWorkspace } from '../lib/tenancy';
import type { z } from 'zod';
import type { apiKeySchema } from '@gathercast/contract';

/** As the contract says (`apiKeySchema`). */
export type ApiKeyView = z.infer<typeof apiKeySchema>;

interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string | null;
  scopes: ApiScope[];
  event_id: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const columns = 'id, workspace_id, name, scopes, event_id, created_at, last_used_at, revoked_at';

const view = (r: ApiKeyRow): ApiKeyView => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  status: r.revoked_at ? 'revoked' : 'active',
  scopes: r.scopes,
  eventId: r.event_id,
  createdAt: iso(r.created_at)!,
  lastUsedAt: iso(r.last_used_at),
  revokedAt: iso(r.revoked_at),
});

export interface NewApiKey {
  name: string | null;
  /** Default: every scope. */
  scopes?: ApiScope[];
  eventId?: string | null;
}

/** The key that asks for a new key, when a key does: it cannot grant more than it holds. */
export interface CreatingKey {
  scopes: ApiScope[];
  eventId: string | null;
}

/** A gck_ key: 256 random bits; the secret is returned here once and only its SHA-256 is kept. */
export async function createApiKey(
  em: EntityManager,
  workspaceId: string,
  key: NewApiKey,
  creator?: CreatingKey,
): Promise<ApiKeyView & { secret: string }> {
  const scopes = [...new Set(key.scopes ?? (['*'] as ApiScope[]))];
  const eventId = key.eventId ?? creator?.eventId ?? null;
  if (creator) checkWithinCreator(creator, scopes, eventId);
  if (eventId) {
    const [found] = await sql(em, 'select 1 from event where id = ? and workspace_id = ?', [eventId, workspaceId]);
    ofWorkspace(found, 'Event');
  }
  const secret = newSecret(secretPrefixes.apiKey);
  const rows = await sql<ApiKeyRow>(
    em,
    // The scopes travel as a JSON array: the ORM would expand a JS array binding into a list.
    `insert into api_key (id, workspace_id, name, secret_hash, scopes, event_id)
     values (?, ?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?) returning ${columns}`,
    [randomUUID(), workspaceId, key.name, hashSecret(secret), JSON.stringify(scopes), eventId],
  );
  return { ...view(rows[0]!), secret };
}

/** A key creating a key: every scope asked must be one the creator holds, on no wider an event range. */
function checkWithinCreator(creator: CreatingKey, scopes: ApiScope[], eventId: string | null): void {
  if (creator.eventId && eventId !== creator.eventId) {
    throw problem('forbidden', `This API key is restricted to event ${creator.eventId}; so are the keys it creates`);
  }
  if (creator.scopes.includes('*')) return;
  const beyond = scopes.filter((s) => s === '*' || !scopesGranting(s).some((g) => creator.scopes.includes(g)));
  if (beyond.length) throw problem('forbidden', `This API key cannot grant scopes it does not hold: ${beyond.join(', ')}`);
}

/** Every key of the workspace, revoked ones included (kept for audit), newest first. */
/** Newest first. */
export async function listApiKeys(em: EntityManager, workspaceId: string, input: PageInput) {
  const page = await timeOrderedPage<ApiKeyRow>(
    em,
    { select: `select ${columns} from api_key where workspace_id = ?`, params: [workspaceId], newestFirst: true },
    input,
  );
  return { apiKeys: page.rows.map(view), nextCursor: page.nextCursor };
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
