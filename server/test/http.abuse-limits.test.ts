import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mailboxOf, signUp, uniqueEmail } from './support/accounts';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Calls that send email or create accounts are limited per client address and per target email
 * address, with the production defaults (docs/limits.md). Each test comes from its own address
 * (X-Forwarded-For, trusted here), so their counters do not mix.
 */
let t: TestServer;
useTestServer({ RATE_LIMITS: undefined, TRUST_PROXY: 'true' }, (started) => {
  t = started;
});

const newAddress = () => `10.${randomBytes(3).join('.')}`;
const from = (address: string, auth: { sessionToken?: string } = {}) =>
  t.client({ ...auth, headers: { 'x-forwarded-for': address } }).raw;

/** Sends `n` calls one after another and returns their statuses and the last answer. */
async function repeat(
  n: number,
  call: (i: number) => Promise<{ status: number; headers: Headers; body: unknown }>,
) {
  const answers = [];
  for (let i = 0; i < n; i++) answers.push(await call(i));
  return answers;
}

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status);

function expectRefusal(answer: { status: number; headers: Headers; body: unknown }) {
  expect(answer.status).toBe(429);
  expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(answer.body).toMatchObject({ code: 'rate_limited' });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.headers.get('ratelimit-remaining')).toBe('0');
  expect(answer.headers.get('ratelimit-policy')).toMatch(/^\d+;w=\d+$/);
}

describe('abuse limits on calls that send email or create accounts', () => {
  it('lets 5 registrations per hour through for one target address, then answers 429; only 5 emails go out', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'scheduled', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const victim = uniqueEmail('victim');
    // From rotating addresses: the per-target limit alone stops them.
    const answers = await repeat(40, () =>
      from(newAddress()).public.register(event.id, { name: 'V', email: victim }),
    );
    expect(statuses(answers)).toEqual([...Array(5).fill(200), ...Array(35).fill(429)]);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBe('5');
    expect(answers[0]!.headers.get('ratelimit-remaining')).toBe('4');
    expectRefusal(answers[5]!);
    expect(await mailboxOf(t, victim)).toHaveLength(5);
  });

  it('lets one address register 30 people per 10 minutes, then answers 429', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'scheduled', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const address = newAddress();
    const answers = await repeat(31, () =>
      from(address).public.register(event.id, { name: 'P', email: uniqueEmail('reg') }),
    );
    expect(statuses(answers)).toEqual([...Array(30).fill(200), 429]);
    expectRefusal(answers[30]!);
  });

  it('lets one address sign up 10 accounts per hour, then answers 429 and creates none', async () => {
    const address = newAddress();
    const emails = Array.from({ length: 15 }, () => uniqueEmail('signup'));
    const answers = await repeat(15, (i) =>
      from(address).accounts.signup({ email: emails[i]!, password: 'long-enough', name: 'S' }),
    );
    expect(statuses(answers)).toEqual([...Array(10).fill(201), ...Array(5).fill(429)]);
    expectRefusal(answers[10]!);
    const login = await from(newAddress()).accounts.login({ email: emails[14]!, password: 'long-enough' });
    expect(login.status).toBe(401);
  });

  it('lets 3 password resets per hour through for one address of an account, then answers 429', async () => {
    const person = await signUp(t, 'reset');
    const answers = await repeat(4, () =>
      from(newAddress()).accounts.requestPasswordReset({ email: person.email }),
    );
    expect(statuses(answers)).toEqual([200, 200, 200, 429]);
    expectRefusal(answers[3]!);
    expect(await mailboxOf(t, person.email)).toHaveLength(1 + 3); // the verification email and three resets
  });

  it('limits email invites per invited address', async () => {
    const owner = await signUp(t, 'inviter');
    const invitee = uniqueEmail('invitee');
    const answers = await repeat(6, () =>
      from(newAddress(), { sessionToken: owner.sessionToken }).invites.create(owner.workspaceId, {
        kind: 'workspace',
        email: invitee,
      }),
    );
    expect(statuses(answers)).toEqual([201, 201, 201, 201, 201, 429]);
    expectRefusal(answers[5]!);
  });
});
