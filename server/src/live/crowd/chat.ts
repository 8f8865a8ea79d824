import { randomUUID } from 'node:crypto';
import { onStage } from '../connection';
import type { Handler } from '../deps';
import { toAll } from '../deps';
import { chatPolicy } from './chat-policy';
import type { ChatLine } from './pending';

/**
 * A chat line: checked (chatPolicy), written to the chat log, then sent on: to a small audience as
 * its own message at once, to a large one in the next batch frame (the sender sees its line at once;
 * the frame's copy has the same `id`). Hosts, speakers and moderators are the voice of the event:
 * their lines go to everyone at once whatever the audience, and are never sampled out.
 */
export const sendChat: Handler<'chat.send'> = async (h, { text }) => {
  await chatPolicy(h);
  const from = h.conn.identity();
  const line: ChatLine = {
    type: 'chat.message',
    id: randomUUID(),
    from,
    text,
    sentAt: new Date().toISOString(),
  };
  await h.deps.chatLog.append({
    id: line.id!,
    workspaceId: h.event.workspaceId,
    eventId: h.event.id,
    participantId: from.participantId,
    authorName: from.anonymous ? null : from.name,
    role: from.role,
    anonymous: from.anonymous,
    text,
    sentAt: line.sentAt,
  });
  if (onStage(from.role) || !h.deps.crowd.large(h.event.id)) return toAll(h, line);
  h.conn.send(line);
  h.deps.crowd.chat(h.event.id, line);
};
