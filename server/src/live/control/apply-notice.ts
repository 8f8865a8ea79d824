import { liveCloseCodes } from '@gathercast/contract';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { LiveConnection } from '../connection';
import type { ControlNotice } from './notice';
import type { RecentAddresses } from './recent-addresses';

export interface ControlHost {
  ctx: { pool: pg.Pool; logger: Logger };
  /** This process's open connections of an event. */
  local(eventId: string): LiveConnection[];
  /** Drops this process's cached state of the event (the next read is fresh). */
  forgetEvent(eventId: string): void;
  /** Where participants last connected from here. */
  addresses: Pick<RecentAddresses, 'of'>;
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
    const addresses = [...new Set(sockets.map((c) => c.clientAddress).filter((a) => a !== undefined))];
    // One address per ban row: the first socket's (a participant on two networks is rare); without a
    // socket here, the address they last connected from here.
    const address = addresses[0] ?? host.addresses.of(eventId, notice.participantId);
    if (address)
      await host.ctx.pool
        .query(
          `update live_sanction set client_address = $3
            where event_id = $1 and participant_id = $2 and kind = 'ban' and with_address and client_address is null`,
          [eventId, notice.participantId, address],
        )
        .then(() => host.forgetEvent(eventId))
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
