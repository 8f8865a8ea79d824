import { liveCloseCodes } from '@gathercast/contract';
import type { Logger } from 'pino';
import type { Queryable } from '../db/pool';
import type { LiveConnection } from './connection';
import { currentStoredRoles, userInEventKey } from './current-roles';
import { PgListener } from './pg-listener';

/** Notified by the triggers of migration LiveRoleChanges when someone's event role may have changed. */
const rolesChannel = 'gc_live_roles';

/**
 * A changed role reaches the sockets that hold the old one, on every process: when an event membership
 * is given, changed or removed (or the workspace membership behind the owner and admin default), each
 * socket of the people named is checked against the role they have in that socket's event now (one
 * statement per notification, current-roles.ts). A socket whose role changed, narrower or wider, is
 * closed with 4010: nothing it sent meanwhile is handled any more; the client reconnects with a new
 * gateway token, which carries the role they have now (a token carrying the old one is refused: see
 * upgrade.ts). A socket whose role in its event is unchanged (a membership in another event, a change
 * that resolves to the same role) stays open.
 */
export class RoleChanges {
  readonly #listener: PgListener;
  #applied: Promise<void> = Promise.resolve();

  constructor(
    databaseUrl: string,
    private readonly db: Queryable,
    private readonly sockets: () => Iterable<LiveConnection>,
    private readonly logger: Logger,
  ) {
    this.#listener = new PgListener(
      databaseUrl,
      [rolesChannel],
      // One notification after the other, in commit order: a later change is applied after an earlier one.
      (_c, payload) => {
        this.#applied = this.#applied
          .then(() => this.#changed(payload))
          .catch((err: unknown) => logger.error({ err }, 'live role change not applied'));
      },
      logger,
    );
  }

  start(): Promise<void> {
    return this.#listener.start();
  }

  stop(): Promise<void> {
    return this.#listener.stop();
  }

  async #changed(payload: string): Promise<void> {
    const { workspaceId, userIds } = JSON.parse(payload) as { workspaceId: string; userIds: string[] | null };
    const users = new Set(userIds ?? []);
    const named = [...this.sockets()].filter(
      (conn) => !conn.revoked && conn.workspaceId === workspaceId && users.has(conn.claims.userId ?? ''),
    );
    if (named.length === 0) return;
    const pairs = new Map(named.map((c) => [userInEventKey(pairOf(c)), pairOf(c)]));
    const now = await currentStoredRoles(this.db, [...pairs.values()]).catch((err: unknown) => {
      // Unknown now: every named socket closes, as a changed one would (the reconnect reads the role).
      this.logger.warn({ err }, 'live role change: roles not read, closing every named socket');
      return new Map<string, string>();
    });
    for (const conn of named) {
      if (conn.revoked || now.get(userInEventKey(pairOf(conn))) === conn.claims.storedRole) continue;
      conn.revoked = true;
      conn.close(liveCloseCodes.roleChanged, 'role changed: reconnect with a new gateway token');
    }
  }
}

const pairOf = (conn: LiveConnection) => ({ userId: conn.claims.userId!, eventId: conn.eventId });
