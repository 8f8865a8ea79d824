import { abuseLimitDefaults } from '../../src/lib/abuse-limits';

/**
 * The limits every test server runs with, in-process or a child process: a test's burst of setup calls
 * is not a tenant's traffic, tests sign many accounts up and register from one address, and every test
 * client connects from 127.0.0.1. A test of a limit passes its own values (`RATE_LIMITS: undefined`
 * gives the production defaults of the abuse limits); docs/limits.md states the real ones.
 */
export const liftedLimits: Record<string, string> = {
  API_LIMIT_KEY_READS: '100000',
  API_LIMIT_KEY_WRITES: '100000',
  API_LIMIT_WORKSPACE_READS: '100000',
  API_LIMIT_WORKSPACE_WRITES: '100000',
  RATE_LIMITS: Object.entries(abuseLimitDefaults)
    .flatMap(([action, scopes]) => Object.keys(scopes).map((scope) => `${action}.${scope}=1000000/60`))
    .join(','),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: '100000',
  // Turns stay on (every test exercises them); only the wait is lifted, for a loaded machine.
  API_TENANT_MAX_WAIT_MS: '120000',
};
