import type { Handling } from '../deps';
import { requireFeature } from '../deps';
import { checkChatLine } from '../control/chat-rules';

/**
 * Whether a chat line may be accepted: the one check every `chat.send` passes before it is logged or
 * sent on. Rules about who may chat and how often belong here (throwing a LiveError refuses the line).
 */
export async function chatPolicy(h: Handling): Promise<void> {
  requireFeature(h.event, 'chat');
  // Mutes, the room's chat mode and slow mode (docs/live-gateway.md, room control).
  await checkChatLine(h);
}
