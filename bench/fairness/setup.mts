/** The fairness bench's tenants through the API, and percentiles (the server and database: bench/support). */
import { randomBytes } from 'node:crypto';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A call that waits out a 429 (the seeding is itself under the write budget). */
export async function call(url: string, init: RequestInit): Promise<Response> {
  for (;;) {
    const res = await fetch(url, init);
    if (res.status !== 429) return res;
    await res.arrayBuffer();
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A tenant: an account signed up through the API, its workspace, `keys` API keys and `events` events. */
export async function signUpWithKeys(base: string, label: string, keys: number, events: number) {
  const email = `${label}-${randomBytes(4).toString('hex')}@example.test`;
  const account = await json<{ sessionToken: string; workspaces: { id: string }[] }>(
    await call(`${base}/v1/accounts/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: `pw-${randomBytes(8).toString('hex')}`, name: label }),
    }),
    'signup',
  );
  const workspaceId = account.workspaces[0]!.id;
  const secrets: string[] = [];
  for (let i = 0; i < keys; i++) {
    const key = await json<{ secret: string }>(
      await call(`${base}/v1/workspaces/${workspaceId}/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.sessionToken}` },
        body: JSON.stringify({ name: `${label} ${i}` }),
      }),
      'API key',
    );
    secrets.push(key.secret);
  }
  for (let i = 0; i < events; i++) {
    await json(
      await call(`${base}/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': secrets[0]! },
        body: JSON.stringify({ type: 'webinar', title: `${label} ${i}` }),
      }),
      'event',
    );
  }
  return { workspaceId, keys: secrets };
}

/** The p-th percentile (nearest rank) of the values. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
