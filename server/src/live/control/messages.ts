import { isLiveErrorCode } from '@gathercast/contract';
import { ProblemError } from '../../lib/problem';
import { LiveError } from '../connection';
import type { Handler, Handling } from '../deps';
import {
  type Acting,
  banParticipant,
  deleteChatMessage,
  deleteQuestion,
  type RoomControlDeps,
  removeParticipant,
  setMuted,
  unbanParticipant,
  updateRoom,
} from './room-control';

/*
 * Room control on the live gateway, for hosts and workspace admins (dispatch.ts marks them moderator
 * messages): the same functions as the REST routes, acting as the host's participantId.
 */

async function acting(
  h: Handling,
  run: (deps: RoomControlDeps, at: Acting) => Promise<unknown>,
): Promise<void> {
  const deps = { pool: h.deps.ctx.pool, bus: h.deps.ctx.bus, fanout: h.deps.fanout };
  try {
    await run(deps, { workspaceId: h.event.workspaceId, eventId: h.event.id, by: h.conn.participantId });
  } catch (err) {
    // Room control answers not_found and invalid_state, live codes too; any other is a failure here.
    if (err instanceof ProblemError && isLiveErrorCode(err.code)) throw new LiveError(err.code, err.detail);
    throw err;
  }
}

function notSelf(h: Handling, participantId: string): void {
  if (participantId === h.conn.participantId)
    throw new LiveError('bad_request', 'You cannot do this to yourself');
}

export const removeMessage: Handler<'participant.remove'> = (h, { participantId, reason }) => {
  notSelf(h, participantId);
  return acting(h, (deps, at) => removeParticipant(deps, at, participantId, reason ?? null));
};

export const banMessage: Handler<'participant.ban'> = (h, { participantId, reason, clientAddress }) => {
  notSelf(h, participantId);
  return acting(h, (deps, at) =>
    banParticipant(deps, at, participantId, {
      reason: reason ?? null,
      clientAddress: clientAddress ?? false,
    }),
  );
};

export const unbanMessage: Handler<'participant.unban'> = (h, { participantId }) =>
  acting(h, (deps, at) => unbanParticipant(deps, at, participantId));

export const muteMessage: Handler<'participant.mute'> = (h, { participantId }) => {
  notSelf(h, participantId);
  return acting(h, (deps, at) => setMuted(deps, at, participantId, true));
};

export const unmuteMessage: Handler<'participant.unmute'> = (h, { participantId }) =>
  acting(h, (deps, at) => setMuted(deps, at, participantId, false));

export const deleteChatMessageMessage: Handler<'chat.delete'> = (h, { messageId }) =>
  acting(h, (deps, at) => deleteChatMessage(deps, at, messageId));

export const deleteQuestionMessage: Handler<'question.delete'> = (h, { questionId }) =>
  acting(h, (deps, at) => deleteQuestion(deps, at, questionId));

export const updateRoomMessage: Handler<'room.update'> = (h, { chatMode, slowModeSeconds }) =>
  acting(h, (deps, at) => updateRoom(deps, at, { chatMode, slowModeSeconds }));
