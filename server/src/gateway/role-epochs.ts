import { type SqlTx, sql } from '../db/sql';

/**
 * How many times this person's event roles have changed (an event membership, or the workspace
 * membership behind the owner and admin default; migration LiveRoleChanges keeps the count). A
 * gateway token carries the count it was minted at; the live gateway refuses a token minted before
 * the latest change, so no token grants more than the role its holder has now.
 */
export async function roleEpochOf(db: SqlTx, userId: string): Promise<number> {
  const rows = await sql<{ epoch: string }>(
    db,
    'select epoch from participant_role_epoch where user_id = ?',
    [userId],
  );
  return Number(rows[0]?.epoch ?? 0);
}
