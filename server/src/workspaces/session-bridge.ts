import type { EntityManager } from '@mikro-orm/postgresql';
import { primaryEmailOf } from '../accounts/account-view';
import { createWorkspaceSession } from '../identity/sessions';
import { sql } from '../db/sql';
import { bridgedUserFor } from '../people/users-service';

/**
 * The workspace session bridge: the account's participant identity in the workspace (upserted, the
 * same one that makes event creators hosts) and a 12-hour gcw_ token carrying it.
 */
export async function bridgeWorkspaceSession(em: EntityManager, workspaceId: string, accountId: string) {
  return em.transactional(async (tx) => {
    const [account] = await sql<{ name: string }>(tx, 'select name from account where id = ?', [accountId]);
    const email = await primaryEmailOf(tx, accountId);
    const user = await bridgedUserFor(tx, workspaceId, { id: accountId, name: account!.name, email });
    const session = await createWorkspaceSession(tx, { accountId, workspaceId, userId: user.id });
    return {
      sessionToken: session.token,
      expiresAt: session.expiresAt.toISOString(),
      participant: { id: user.id, workspaceId, accountId, name: user.name ?? account!.name, email: user.email },
    };
  });
}
