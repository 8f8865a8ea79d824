import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { problem } from '../lib/problem';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { isUniqueViolation, iso, sql } from '../db/sql';
import { type ApiKeyView, createApiKey } from './api-keys';
import { generateUniqueSlug } from './slugs';
import type { z } from 'zod';
import type { workspaceSchema } from '@gathercast/contract';

/** As the contract says (`workspaceSchema`). */
export type WorkspaceView = z.infer<typeof workspaceSchema>;

interface WorkspaceRow {
  id: string;
  name: string;
  slug: string;
  created_at: Date;
}

const view = (r: WorkspaceRow): WorkspaceView => ({ id: r.id, name: r.name, slug: r.slug, createdAt: iso(r.created_at)! });

const slugTaken = (slug: string) => problem('slug_taken', `The slug "${slug}" is already taken`);

/**
 * A workspace owned by the account, with its first default API key (secret shown once). Without a
 * slug one is generated from the name. Call inside a transaction.
 */
export async function createWorkspace(
  em: EntityManager,
  accountId: string,
  input: { name: string; slug?: string },
): Promise<WorkspaceView & { apiKey: ApiKeyView & { secret: string } }> {
  const slug = input.slug ?? (await generateUniqueSlug(em, input.name));
  let rows: WorkspaceRow[];
  try {
    rows = await sql<WorkspaceRow>(em, 'insert into workspace (id, name, slug) values (?, ?, ?) returning *', [
      randomUUID(),
      input.name,
      slug,
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(slug);
    throw err;
  }
  const workspace = view(rows[0]!);
  await sql(em, `insert into workspace_member (id, workspace_id, account_id, role) values (?, ?, ?, 'owner')`, [
    randomUUID(),
    workspace.id,
    accountId,
  ]);
  const apiKey = await createApiKey(em, workspace.id, { name: 'Default' });
  return { ...workspace, apiKey };
}

/** The account's workspaces, or every workspace for a platform caller. */
export async function listWorkspaces(
  em: EntityManager,
  caller: { accountId?: string; platform: boolean },
  input: PageInput,
): Promise<{ workspaces: WorkspaceView[]; nextCursor: string | null }> {
  const page = await timeOrderedPage<WorkspaceRow>(
    em,
    caller.platform
      ? { select: 'select * from workspace' }
      : {
          select: 'select w.* from workspace w join workspace_member m on m.workspace_id = w.id where m.account_id = ?',
          params: [caller.accountId],
        },
    input,
  );
  return { workspaces: page.rows.map(view), nextCursor: page.nextCursor };
}

export async function updateWorkspace(
  em: EntityManager,
  workspaceId: string,
  input: { name?: string; slug?: string },
): Promise<WorkspaceView> {
  let rows: WorkspaceRow[];
  try {
    rows = await sql<WorkspaceRow>(
      em,
      `update workspace set name = coalesce(?, name), slug = coalesce(?, slug), updated_at = now()
        where id = ? returning *`,
      [input.name ?? null, input.slug ?? null, workspaceId],
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(input.slug ?? '');
    throw err;
  }
  if (!rows[0]) throw problem('not_found', 'Workspace not found');
  return view(rows[0]);
}
