import { randomBytes } from 'node:crypto';
import type { Contract } from '@gathercast/contract';
import type { GathercastClient } from '@gathercast/sdk';
import type { z } from 'zod';
import type { TestServer } from './server';

export interface SignedUp {
  email: string;
  password: string;
  accountId: string;
  sessionToken: string;
  /** The workspace signup created (the account owns it). */
  workspaceId: string;
  /** A Bearer client for this account. */
  client: GathercastClient;
}

export const uniqueEmail = (label = 'person') => `${label}-${randomBytes(4).toString('hex')}@example.test`;

/** Signs a fresh account up through the API. */
export async function signUp(t: TestServer, label = 'person', name = 'Pat Example'): Promise<SignedUp> {
  const email = uniqueEmail(label);
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const account = await t.client().accounts.signup({ email, password, name });
  return {
    email,
    password,
    accountId: account.id,
    sessionToken: account.sessionToken,
    workspaceId: account.workspaces[0]!.id,
    client: t.client({ sessionToken: account.sessionToken }),
  };
}

/** A fresh API key of the workspace, made by one of its owners or admins. */
export async function apiKeyOf(owner: SignedUp, workspaceId = owner.workspaceId): Promise<string> {
  const key = await owner.client.apiKeys.create(workspaceId, { name: 'test' });
  return key.secret;
}

/** One email of the dev mailbox. */
export type DevEmail = z.output<Contract['dev']['mailbox']['responses'][200]>['emails'][number];

/**
 * The dev mailbox (email dev mode), newest first. A development-only route, so not an SDK method:
 * called here with the platform key the test server runs with.
 */
export async function mailboxOf(t: TestServer, to: string): Promise<DevEmail[]> {
  const res = await fetch(`${t.url}/v1/dev/mailbox?${new URLSearchParams({ to })}`, {
    headers: { 'x-platform-key': 'test-platform-key' },
  });
  if (res.status !== 200) throw new Error(`GET /v1/dev/mailbox answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { emails: DevEmail[] }).emails;
}

/** Runs the call and returns the GathercastError it throws (fails the test if it resolves). */
export async function failure(call: Promise<unknown>): Promise<{
  status: number;
  code: string;
  retryAfter?: number;
  detail: string;
  body: Record<string, unknown>;
}> {
  try {
    await call;
  } catch (err) {
    return err as never;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
