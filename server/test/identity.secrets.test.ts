import { describe, expect, it } from 'vitest';
import { hashSecret } from '../src/lib/secrets';
import { failure, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
useTestServer({ LOG_LEVEL: 'debug' }, (started) => {
  t = started;
});

const tokenIn = (url: string) => /(gc[a-z]_[A-Za-z0-9_-]{43})/.exec(url)![1]!;

describe('secrets never reach the logs', () => {
  it('logs no secret and no hash created during a full identity workout', async () => {
    const secrets: string[] = [];
    const owner = await signUp(t, 'logs');
    secrets.push(owner.sessionToken, owner.password);
    const signup = await t
      .client()
      .accounts.signup({ email: `x-${owner.email}`, password: 'another-secret-pw', name: 'X' });
    secrets.push(signup.sessionToken, tokenIn(signup.verifyUrl!), 'another-secret-pw');
    await t.client().accounts.verify({ token: tokenIn(signup.verifyUrl!) });

    const ws = await owner.client.workspaces.create({ name: 'Logs' });
    const key = await owner.client.apiKeys.create(owner.workspaceId, {});
    const keyClient = t.client({ apiKey: key.secret });
    const fromKey = await keyClient.apiKeys.createWithKey({});
    secrets.push(ws.apiKey.secret, key.secret, fromKey.secret);
    await keyClient.members.list(owner.workspaceId);

    const bridged = await owner.client.workspaces.createSession(owner.workspaceId);
    secrets.push(bridged.sessionToken);

    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    const inviteToken = tokenIn(invite.url!);
    secrets.push(inviteToken);
    await t.client().invites.retrieve(inviteToken);
    await t.client({ sessionToken: signup.sessionToken }).invites.accept(inviteToken);

    const { resetUrl } = await t.client().accounts.requestPasswordReset({ email: owner.email });
    secrets.push(tokenIn(resetUrl!), 'a-brand-new-password');
    await t.client().accounts.resetPassword({ token: tokenIn(resetUrl!), password: 'a-brand-new-password' });
    const again = await t.client().accounts.login({ email: owner.email, password: 'a-brand-new-password' });
    secrets.push(again.sessionToken);

    await t.client({ sessionToken: again.sessionToken }).apiKeys.delete(owner.workspaceId, key.id);
    await failure(keyClient.members.list(owner.workspaceId));
    await failure(t.client({ sessionToken: owner.sessionToken }).accounts.retrieve());

    const logs = t.logText();
    expect(logs.length).toBeGreaterThan(1000);
    const leaked = [...secrets, ...secrets.map(hashSecret)].filter((s) => logs.includes(s));
    expect(leaked).toEqual([]);
    expect(logs).not.toMatch(/gc[skwvrig]_[A-Za-z0-9_-]{20,}/);
  });
});
