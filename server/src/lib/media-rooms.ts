/**
 * Media room names and the stage's HLS playlist, shared by the live plane (grants)
 * and broadcasts (the `playbackUrl` of start/pause, `broadcast.live` and the public view). The playlist
 * is the stage room's, one per event: a viewer handed it in `welcome`, before the broadcast starts,
 * plays the same stream the webhook and the public view announce, across pauses and phases.
 */
export const stageRoom = (eventId: string) => `evt_${eventId}_stage`;
export const tableRoom = (eventId: string, table: number) => `evt_${eventId}_table_${table}`;
/** HLS playback of an event's stage (`HLS_BASE_URL`, default `{PUBLIC_BASE_URL}/hls`). */
export const stagePlaybackUrl = (hlsBaseUrl: string, eventId: string) =>
  `${hlsBaseUrl}/${stageRoom(eventId)}/index.m3u8`;
