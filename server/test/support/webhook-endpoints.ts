import type { WebhookEventType } from '@gathercast/sdk';
import { createWorkspace } from './fixtures';
import type { Receiver } from './receiver';
import type { TestServer } from './server';

/**
 * A fresh workspace, its API-key SDK client and one webhook endpoint at the receiver's path `name`
 * (every event type unless `eventTypes` filters them): a test sees only its own deliveries.
 */
export async function workspaceWithEndpointAt(
  t: TestServer,
  rx: Receiver,
  name: string,
  eventTypes?: WebhookEventType[],
) {
  const ws = await createWorkspace(t.databaseUrl);
  const gc = t.client({ apiKey: ws.apiKey });
  const ep = await gc.webhooks.create({ url: rx.url(name), eventTypes });
  return { ...ws, gc, ep };
}
