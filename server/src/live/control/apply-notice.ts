import { liveCloseCodes } from '@gathercast/contract';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { LiveConnection } from '../connection';
import type { ClientAddresses } from './client-addresses';
import type { ControlNotice } from './notice';

export interface ControlHost {
  ctx: { pool: pg.Pool; logger: Logger };
  /** This process's open connections of an event. */
  local(eventId: string): LiveConnection[];
  /** Drops this process's cached state of the event (the next read is fresh). */
  forgetEvent(eventId: string): void;
  /** Where participants last connected from (written as their sockets close). */
  addresses: Pick<ClientAddresses, 'flush'>;
}

/** Applies a notice on this process (called for every envelope carrying one, on every process). */
export async function applyControlNotice(
  host: ControlHost,
  eventId: string,
  notice: ControlNotice,
): Promise<void> {
  host.forgetEvent(eventId);
  if (notice.kind !== 'remove') return;
  const sockets = host.local(eventId).filter((c) => c.participantId === notice.participantId);
  if (notice.recordAddress) {
    // One address per ban row: a socket's here (a participant on two networks is rare), fresher than the
    // one recorded. Without a socket here: this process's recorded addresses are written first (a viewer
    // who left a moment ago may still be in a group), then a ban still without one takes the table's.
    const address = sockets.map((c) => c.clientAddress).find((a) => a !== undefined);
    const recorded = async () => {
      if (address)
        return host.ctx.pool.query(
          `update live_sanction set client_address = $3
            where event_id = $1 and participant_id = $2 and kind = 'ban' and with_address`,
          [eventId, notice.participantId, address],
        );
      await host.addresses.flush();
      return host.ctx.pool.query(
        `update live_sanction s set client_address = a.client_address
           from live_client_address a
          where s.event_id = $1 and s.participant_id = $2 and s.kind = 'ban' and s.with_address
            and s.client_address is null and a.event_id = s.event_id and a.participant_id = s.participant_id`,
        [eventId, notice.participantId],
      );
    };
    await recorded()
      .then((r) => {
        if (r.rowCount) host.forgetEvent(eventId);
      })
      .catch((err: unknown) => host.ctx.logger.warn({ err }, 'live ban address not recorded'));
  }
  for (const conn of sockets) {
    conn.send({ type: 'removed', reason: notice.reason, banned: notice.banned });
    conn.close(notice.banned ? liveCloseCodes.banned : liveCloseCodes.removed, closeReason(notice));
  }
}

/** A close frame's reason is at most 123 bytes. */
function closeReason(notice: Extract<ControlNotice, { kind: 'remove' }>): string {
  const text = notice.reason
    ? `${notice.banned ? 'banned' : 'removed'}: ${notice.reason}`
    : notice.banned
      ? 'banned'
      : 'removed';
  let out = text;
  while (Buffer.byteLength(out) > 123) out = out.slice(0, -1);
  return out;
}
