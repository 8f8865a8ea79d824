import { LiveError } from '../connection';
import type { Handling } from '../deps';
import { isModerator } from '../media';
import { chatSettings, mayChat } from './room-state';

function refuseMuted(h: Handling): void {
  if (h.event.control.muted.has(h.conn.participantId))
    throw new LiveError('forbidden', 'A moderator muted you: your chat lines and questions are not accepted');
}

/**
 * Whether this chat line may go out: not muted, the chat mode lets the sender's role chat, and in
 * slow mode their previous line is at least the gap old (hosts and workspace admins are exempt from
 * slow mode). The gap is kept per sender of the event in the store every process shares
 * (slow-mode.ts), so it holds whichever process each of the sender's sockets is on.
 */
export async function checkChatLine(h: Handling): Promise<void> {
  refuseMuted(h);
  const { chatMode, slowModeSeconds } = chatSettings(h.event.control, h.event.governingPhase?.config);
  if (!mayChat(chatMode, h.conn.role))
    throw new LiveError(
      'forbidden',
      chatMode === 'moderators_only' ? 'Only hosts chat in this room now' : 'Chat is locked for the audience',
    );
  if (slowModeSeconds <= 0 || isModerator(h.conn.role)) return;
  const waitMs = await h.deps.slowMode.claim(
    { workspaceId: h.event.workspaceId, eventId: h.event.id, participantId: h.conn.participantId },
    slowModeSeconds * 1000,
  );
  if (waitMs > 0)
    throw new LiveError(
      'rate_limited',
      `Slow mode: one line every ${slowModeSeconds} s; wait ${Math.ceil(waitMs / 1000)} s`,
    );
}

/** A muted participant's questions are refused too. */
export const checkQuestion = refuseMuted;
