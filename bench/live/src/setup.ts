// The scene, through the public API as a new user would set it up: an account (which owns its first
// workspace), an API key, a public broadcast with chat, polls, Q&A and reactions in its phase taken
// live, a webhook endpoint for the webhook types a scenario counts, and the host's gateway token.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createClient } from '@gathercast/sdk';

export interface Scene {
  eventId: string;
  sessionToken: string;
  /** A gateway token of the workspace owner: role host. */
  hostToken: string;
  /** The workspace's API key (REST reads of what the live plane stored). */
  apiKey: string;
}

/** Event options a scenario needs besides the defaults (Q&A: anonymous viewers may ask and vote). */
export interface SceneEventOptions {
  allowAnonymousQuestions?: boolean;
  allowAnonymousVoting?: boolean;
}

export async function setUpScene(
  baseUrl: string,
  webhookUrl: string | undefined,
  webhookTypes: ('participant.joined' | 'participant.left' | 'question.created')[] = ['participant.joined'],
  eventOptions: SceneEventOptions = {},
): Promise<Scene> {
  const anyone = createClient({ baseUrl });
  const account = await anyone.accounts.signup({
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
    password: `pw-${randomBytes(8).toString('hex')}`,
    name: 'Bench Host',
  });
  const owner = createClient({ baseUrl, sessionToken: account.sessionToken });
  const workspaceId = account.workspaces[0]!.id;
  const key = await owner.apiKeys.create(workspaceId, { name: 'bench-live' });
  const gc = createClient({ baseUrl, apiKey: key.secret });
  const event = await gc.events.create({
    type: 'webinar',
    title: 'Bench: audience at scale',
    visibility: 'public',
    phases: [{ modality: 'broadcast', featureSet: ['chat', 'polls', 'qa', 'reactions'] }],
    ...eventOptions,
  });
  if (webhookUrl) await gc.webhooks.create({ url: webhookUrl, eventTypes: webhookTypes });
  await gc.events.publish(event.id);
  await gc.events.start(event.id);
  const host = await owner.gateway.token({ eventId: event.id });
  if (host.role !== 'host') throw new Error(`the owner's gateway token has role ${host.role}, not host`);
  return { eventId: event.id, sessionToken: account.sessionToken, hostToken: host.token, apiKey: key.secret };
}

/**
 * Keep-alive connections for the token storm, on node:http rather than fetch: the load generator
 * shares the machine with the server, and fetch cost it about as much CPU per token as the server
 * spent issuing it.
 */
const tokenAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** An anonymous viewer's gateway token, as a browser would ask for it (no SDK retries, no idempotency key). */
export function anonymousToken(baseUrl: string, eventId: string): Promise<string> {
  const body = JSON.stringify({ eventId });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/v1/auth/gateway-token`,
      {
        method: 'POST',
        agent: tokenAgent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`gateway token: ${res.statusCode} ${text}`));
          else resolve((JSON.parse(text) as { token: string }).token);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
