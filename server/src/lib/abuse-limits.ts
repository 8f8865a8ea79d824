import type { RateLimitState } from './rate-limit-state';
import { type RateLimit, type RateLimitStore, tightest } from './rate-limits';

const minute = 60;
const hour = 3600;

interface Window {
  points: number;
  durationSeconds: number;
}

/**
 * The limits on calls that send email or create accounts, which need no credential (or, for invites,
 * send mail to anyone): per client address AND per target email address, so neither one address
 * flooding many mailboxes nor many addresses flooding one mailbox gets through. docs/limits.md lists
 * them; RATE_LIMITS (`signup.address=20/3600,…`) replaces any of them.
 */
export const abuseLimitDefaults = {
  signup: { address: { points: 10, durationSeconds: hour }, target: { points: 3, durationSeconds: hour } },
  password_reset: {
    address: { points: 20, durationSeconds: hour },
    target: { points: 3, durationSeconds: hour },
  },
  registration: {
    address: { points: 30, durationSeconds: 10 * minute },
    target: { points: 5, durationSeconds: hour },
  },
  invite: { address: { points: 100, durationSeconds: hour }, target: { points: 5, durationSeconds: hour } },
} satisfies Record<string, Record<AbuseScope, Window>>;

export type AbuseAction = keyof typeof abuseLimitDefaults;
type AbuseScope = 'address' | 'target';

/** Parses RATE_LIMITS: `name.scope=points/seconds` entries separated by commas. */
export function parseRateLimitOverrides(text: string): Map<string, Window> {
  const out = new Map<string, Window>();
  for (const entry of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z_]+\.[a-z_]+)=(\d+)\/(\d+)$/.exec(entry);
    if (!m) throw new Error(`RATE_LIMITS entry "${entry}" is not name.scope=points/seconds`);
    out.set(m[1]!, { points: Number(m[2]), durationSeconds: Number(m[3]) });
  }
  return out;
}

/** The limits above on the shared rate-limit store, overrides applied. */
export class AbuseLimits {
  private readonly limits = new Map<string, RateLimit>();

  constructor(store: RateLimitStore, overrides = '') {
    const replaced = parseRateLimitOverrides(overrides);
    for (const [action, scopes] of Object.entries(abuseLimitDefaults)) {
      for (const [scope, window] of Object.entries(scopes)) {
        const name = `${action}.${scope}`;
        const w = replaced.get(name) ?? window;
        this.limits.set(
          name,
          store.limit({
            keyPrefix: `${action}_${scope}`,
            points: w.points,
            durationSeconds: w.durationSeconds,
          }),
        );
      }
    }
  }

  /**
   * Counts one call against the client address, then against the target address; throws 429
   * rate_limited (Retry-After, RateLimit-*) past either. Answers the tighter standing for the headers.
   */
  async consume(action: AbuseAction, who: { address: string; target: string }): Promise<RateLimitState> {
    const byAddress = await this.limit(action, 'address').consume(who.address);
    const byTarget = await this.limit(action, 'target').consume(who.target.toLowerCase());
    return tightest([byAddress, byTarget]);
  }

  private limit(action: AbuseAction, scope: AbuseScope): RateLimit {
    return this.limits.get(`${action}.${scope}`)!;
  }
}
