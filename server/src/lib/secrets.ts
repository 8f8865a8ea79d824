import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Secret prefixes that secret scanners can match (GitHub-style secret scanning keys on them). */
export const secretPrefixes = {
  apiKey: 'gck_',
  webhookSecret: 'whsec_',
  accountSession: 'gcs_',
  workspaceSession: 'gcw_',
  guestSession: 'gcg_',
  entrySession: 'gce_',
  verify: 'gcv_',
  reset: 'gcr_',
  invite: 'gci_',
  tableNotes: 'gcn_',
  joinLink: 'gcj_',
} as const;

/** The bearer-style sessions (gcs_, gcw_, gcg_, gce_); stored in session.kind, resolved by the HTTP edge. */
export const sessionKinds = ['account', 'workspace', 'guest', 'entry'] as const;
export type SessionKind = (typeof sessionKinds)[number];

/** 256 random bits, base64url, behind the given prefix. */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
