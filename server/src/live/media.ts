import type { EventRole, Modality } from '@gathercast/contract';
import { AccessToken } from 'livekit-server-sdk';
import type { Config } from '../config';
import { stagePlaybackUrl, stageRoom, tableRoom } from '../lib/media-rooms';
import type { LiveConnection } from './connection';

/** The media grant of the contract's `mediaGrantSchema`. */
export interface MediaGrant {
  url: string;
  token: string | null;
  room: string | null;
  canPublish: boolean;
  canSubscribe: boolean;
  roomAdmin: boolean;
  playbackUrl: string | null;
}

/** Hosts and workspace admins moderate the live plane (spec, Authentication rule 6). */
export const isModerator = (role: EventRole) => role === 'host' || role === 'workspace_admin';

export interface MediaSubject {
  eventId: string;
  participantId: string;
  name: string | null;
  /** Narrowed for the phase the grant is for. */
  role: EventRole;
}

/** Media tokens outlive the 5-minute gateway token: they are re-issued on every phase change anyway. */
const mediaTokenTtl = '6h';

const noSeat = (config: Config, playbackUrl: string | null = null): MediaGrant => ({
  url: config.livekit.url,
  token: null,
  room: null,
  canPublish: false,
  canSubscribe: false,
  roomAdmin: false,
  playbackUrl,
});

async function seat(
  config: Config,
  who: MediaSubject,
  room: string,
  grant: { canPublish: boolean; canSubscribe: boolean; roomAdmin: boolean; hidden?: boolean },
): Promise<MediaGrant> {
  const at = new AccessToken(config.livekit.apiKey, config.livekit.apiSecret, {
    identity: who.participantId,
    name: who.name ?? undefined,
    ttl: mediaTokenTtl,
    metadata: JSON.stringify({ role: who.role }),
  });
  at.addGrant({
    room,
    roomJoin: true,
    canPublish: grant.canPublish,
    canPublishData: grant.canPublish,
    canSubscribe: grant.canSubscribe,
    roomAdmin: grant.roomAdmin,
    hidden: grant.hidden ?? false,
  });
  return {
    url: config.livekit.url,
    token: await at.toJwt(),
    room,
    canPublish: grant.canPublish,
    canSubscribe: grant.canSubscribe,
    roomAdmin: grant.roomAdmin,
    playbackUrl: null,
  };
}

/**
 * The grant for a phase: on a broadcast stage hosts and speakers publish (hosts are
 * room admins) and viewers get only the HLS playback URL; a meeting is one room (the stage room)
 * where everyone with a seat publishes and subscribes; in breakouts and rotations a participant sits
 * at their table (null until seated) and hosts get no seat until they observe a table.
 */
export function phaseGrant(
  config: Config,
  who: MediaSubject,
  modality: Modality | null,
  table: number | null = null,
): Promise<MediaGrant> | MediaGrant {
  const admin = isModerator(who.role);
  if (modality === null) return noSeat(config);
  if (modality === 'broadcast') {
    if (admin || who.role === 'speaker')
      return seat(config, who, stageRoom(who.eventId), {
        canPublish: true,
        canSubscribe: true,
        roomAdmin: admin,
      });
    return noSeat(config, stagePlaybackUrl(config.hlsBaseUrl, who.eventId));
  }
  if (who.role === 'viewer') return noSeat(config);
  if (modality === 'meeting')
    return seat(config, who, stageRoom(who.eventId), {
      canPublish: true,
      canSubscribe: true,
      roomAdmin: admin,
    });
  if (admin) return { ...noSeat(config), roomAdmin: true };
  if (table === null) return noSeat(config);
  return seat(config, who, tableRoom(who.eventId, table), {
    canPublish: true,
    canSubscribe: true,
    roomAdmin: false,
  });
}

/** A host looking into a table: subscribes, may moderate, is hidden from the table and does not publish. */
export const observerGrant = (config: Config, who: MediaSubject, table: number) =>
  seat(config, who, tableRoom(who.eventId, table), {
    canPublish: false,
    canSubscribe: true,
    roomAdmin: true,
    hidden: true,
  });

/** Who a media grant is minted for. */
export const subjectOf = (conn: LiveConnection) => ({
  eventId: conn.eventId,
  participantId: conn.participantId,
  name: conn.claims.name,
  role: conn.role,
});
