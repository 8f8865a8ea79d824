import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';
import { startSmtp, type TestSmtp } from './support/smtp';
import { eventually } from './support/wait';

/** The SMTP path against a real SMTP server (smtp-server) on a loopback port. */
let smtp: TestSmtp;
let t: TestServer;

beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());
useTestServer(
  () => ({ SMTP_URL: smtp.url, EMAIL_FROM: 'Gathercast <no-reply@gathercast.test>' }),
  (started) => {
    t = started;
  },
);

/** Undoes quoted-printable soft breaks and escapes, enough to find links in the parts. */
const decodeQuotedPrintable = (s: string) =>
  s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The first received email to the address that matches, waiting for it within the event budget. */
const mailTo = async (address: string, matches: (decoded: string) => boolean = () => true) => {
  const find = async () =>
    smtp.received.find((m) => m.to.includes(address) && matches(decodeQuotedPrintable(m.raw)));
  return eventually(find, (mail) => mail !== undefined);
};

describe('email through SMTP (SMTP_URL set)', () => {
  it('sends the verification email with a plain-text and an HTML part carrying the link', async () => {
    const email = uniqueEmail('smtp');
    await t.client().accounts.signup({ email, password: 'long-enough', name: 'Mail' });
    const mail = await mailTo(email);
    expect(mail).toBeDefined();
    expect(mail!.raw).toMatch(/^From: Gathercast <no-reply@gathercast\.test>/m);
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/);
    const decoded = decodeQuotedPrintable(mail!.raw);
    const links =
      decoded.match(/http:\/\/127\.0\.0\.1:\d+\/verify-email\?token=gcv_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(links.length).toBeGreaterThanOrEqual(2);
    expect(new Set(links).size).toBe(1);
  });

  it('returns no verifyUrl outside email dev mode', async () => {
    const account = await t
      .client()
      .accounts.signup({ email: uniqueEmail('smtp'), password: 'long-enough', name: 'Mail' });
    expect(account.verifyUrl).toBeUndefined();
  });

  it('returns no resetUrl outside email dev mode, and emails the link instead', async () => {
    const email = uniqueEmail('smtp');
    await t.client().accounts.signup({ email, password: 'long-enough', name: 'Mail' });
    const answer = await t.client().accounts.requestPasswordReset({ email });
    expect(answer).toEqual({ requested: true });
    const resetMail = await mailTo(email, (decoded) => decoded.includes('reset-password?token=gcr_'));
    expect(resetMail).toBeDefined();
  });

  it('sends an email invite and returns no URL for it', async () => {
    const owner = await t
      .client()
      .accounts.signup({ email: uniqueEmail('smtp'), password: 'long-enough', name: 'Owner' });
    const invitee = uniqueEmail('invitee');
    const invite = await t
      .client({ sessionToken: owner.sessionToken })
      .invites.create(owner.workspaces[0]!.id, { kind: 'workspace', email: invitee });
    expect(invite.url).toBeUndefined();
    const mail = await mailTo(invitee);
    expect(decodeQuotedPrintable(mail!.raw)).toMatch(/\/invites\/gci_[A-Za-z0-9_-]{43}/);
  });

  it('keeps the dev mailbox closed (404) outside email dev mode', async () => {
    const res = await fetch(`${t.url}/v1/dev/mailbox`, {
      headers: { 'x-platform-key': 'test-platform-key' },
    });
    expect(res.status).toBe(404);
  });
});
