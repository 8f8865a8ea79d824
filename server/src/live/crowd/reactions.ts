import type { Handler } from '../deps';
import { requireFeature, toAll } from '../deps';

/**
 * A reaction: counted in the event's totals, then sent on: to a small audience as its own `reaction`
 * at once, to a large one counted per emoji in the next batch frame (the sender sees its own at once).
 */
export const sendReaction: Handler<'reaction.send'> = async (h, { emoji }) => {
  requireFeature(h.event, 'reactions');
  await h.deps.reactionTotals.add({ workspaceId: h.event.workspaceId, eventId: h.event.id, emoji });
  const reaction = { type: 'reaction', emoji, participantId: h.conn.participantId } as const;
  if (!h.deps.crowd.large(h.event.id)) return toAll(h, reaction);
  h.conn.send(reaction);
  h.deps.crowd.reaction(h.event.id, emoji);
};
