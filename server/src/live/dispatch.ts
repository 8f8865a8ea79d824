import { findInputProblem, type LiveClientMessage, liveClientMessageSchema } from '@gathercast/contract';
import { listAudience } from './audience';
import { type LiveConnection, LiveError } from './connection';
import { sendChat } from './crowd/chat';
import { sendReaction } from './crowd/reactions';
import type { Handler, Handling, LiveDeps } from './deps';
import { admitFromLobby, denyFromLobby } from './lobby';
import { isModerator } from './media';
import { clearBanner, lowerHand, raiseHand, sendAnnouncement, showBanner } from './moderation';
import { observeTable } from './observe';
import { closePoll, createPoll, votePoll } from './polls';
import { answerQuestion, createQuestion, dismissQuestion, voteQuestion } from './questions';
import {
  banMessage,
  deleteChatMessageMessage,
  deleteQuestionMessage,
  muteMessage,
  removeMessage,
  unbanMessage,
  unmuteMessage,
  updateRoomMessage,
} from './control/messages';

type Type = LiveClientMessage['type'];
interface Rule<T extends Type> {
  handle: Handler<T>;
  /** Hosts (and workspace admins) only (spec, Authentication rule 6). */
  moderator?: boolean;
}

const rules: { [T in Exclude<Type, 'ping'>]: Rule<T> } = {
  'question.create': { handle: createQuestion },
  'question.vote': { handle: voteQuestion },
  'question.answer': { handle: answerQuestion, moderator: true },
  'question.dismiss': { handle: dismissQuestion, moderator: true },
  'chat.send': { handle: sendChat },
  'reaction.send': { handle: sendReaction },
  'hand.raise': { handle: raiseHand },
  'hand.lower': { handle: lowerHand },
  'banner.show': { handle: showBanner, moderator: true },
  'banner.clear': { handle: clearBanner, moderator: true },
  'announcement.send': { handle: sendAnnouncement, moderator: true },
  'poll.create': { handle: createPoll, moderator: true },
  'poll.vote': { handle: votePoll },
  'poll.close': { handle: closePoll, moderator: true },
  'lobby.admit': { handle: admitFromLobby, moderator: true },
  'lobby.deny': { handle: denyFromLobby, moderator: true },
  'table.observe': { handle: observeTable, moderator: true },
  'audience.list': { handle: listAudience, moderator: true },
  // Room control (live/control/messages.ts).
  'participant.remove': { handle: removeMessage, moderator: true },
  'participant.ban': { handle: banMessage, moderator: true },
  'participant.unban': { handle: unbanMessage, moderator: true },
  'participant.mute': { handle: muteMessage, moderator: true },
  'participant.unmute': { handle: unmuteMessage, moderator: true },
  'chat.delete': { handle: deleteChatMessageMessage, moderator: true },
  'question.delete': { handle: deleteQuestionMessage, moderator: true },
  'room.update': { handle: updateRoomMessage, moderator: true },
};

function parse(raw: string): LiveClientMessage {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new LiveError('bad_request', 'Messages are JSON objects');
  }
  // The same rules as every HTTP input: no NUL, no lone surrogate, bounded nesting.
  const unstorable = findInputProblem(json, 'message');
  if (unstorable) throw new LiveError('bad_request', `${unstorable.path}: ${unstorable.message}`);
  const parsed = liveClientMessageSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LiveError('bad_request', `${issue.path.join('.') || 'message'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Validates, authorizes and runs one client message; every refusal is an `error` message. `allowed`:
 * whether the socket's rate allowed the message when it arrived (the refusal still answers in order).
 */
export async function dispatch(deps: LiveDeps, conn: LiveConnection, raw: string, allowed: boolean): Promise<void> {
  try {
    if (!allowed) throw new LiveError('rate_limited', 'Too many messages; slow down');
    if (conn.revoked)
      throw new LiveError('forbidden', 'Your roles changed; reconnect with a new gateway token');
    const message = parse(raw);
    if (message.type === 'ping') {
      conn.send({ type: 'pong' });
      return;
    }
    if (conn.lobby) throw new LiveError('forbidden', 'Waiting in the lobby until a host admits you');
    const rule = rules[message.type] as Rule<Type>;
    if (rule.moderator && !isModerator(conn.role))
      throw new LiveError('forbidden', `Only hosts may send ${message.type}`);
    const event = await deps.event(conn.eventId);
    if (!event || event.status === 'ended') throw new LiveError('invalid_state', 'The event has ended');
    const h: Handling = { deps, conn, event };
    await (rule.handle as Handler<Type>)(h, message as never);
  } catch (err) {
    if (err instanceof LiveError) {
      conn.send({ type: 'error', code: err.code, detail: err.message });
      return;
    }
    deps.ctx.logger.error({ err }, 'live message failed');
    conn.send({ type: 'error', code: 'internal', detail: 'The message could not be handled; try again' });
  }
}
