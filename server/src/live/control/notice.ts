/**
 * What a room-control change asks of every process (a notice: no seq, no place in the history).
 * `changed`: the event's sanctions or chat settings changed, read them again. `remove`: besides,
 * close every socket of the participant (a removal or a ban); `recordAddress`: the process holding
 * such a socket writes its client address into the ban first, so a reconnect from there is refused.
 */
export type ControlNotice =
  | { kind: 'changed' }
  | { kind: 'remove'; participantId: string; reason: string | null; banned: boolean; recordAddress: boolean };
