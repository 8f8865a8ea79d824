import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { runCommand } from './support/commands';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('configuration from the environment', () => {
  it('uses the documented defaults when nothing is set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      databaseDirectUrl: undefined,
      dataDir: '.data',
      publicBaseUrl: 'http://localhost:3000',
      errorsBaseUrl: 'http://localhost:3000/docs/errors',
      emailFrom: 'Gathercast <no-reply@localhost>',
      platformKey: undefined,
      webhookAllowInsecureUrls: false,
      webhookTimeoutMs: 10000,
      hlsBaseUrl: 'http://localhost:3000/hls',
      oidc: undefined,
      llm: undefined,
      corsOrigins: [],
      trustProxy: false,
      logLevel: 'info',
      shutdown: { delayMs: 5000, liveMoveMs: 3000 },
      secureCookies: false,
      scheduledJobsIntervalMs: 5000,
    });
  });

  it('derives PUBLIC_BASE_URL from PORT and HLS_BASE_URL from PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PORT: '4100' }).publicBaseUrl).toBe('http://localhost:4100');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }).hlsBaseUrl).toBe('https://api.example.com/hls');
  });

  it('marks cookies Secure when PUBLIC_BASE_URL is https', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com' }).secureCookies).toBe(true);
  });

  it('splits CORS_ORIGINS on commas', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, https://b.example/' }).corsOrigins).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('names the variable and its value in one line per bad variable', () => {
    const problems = problemsOf({ PORT: 'eighty', WEBHOOK_ALLOW_INSECURE_URLS: 'maybe', DATABASE_URL: 'not a url' });
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.startsWith('PORT='))).toMatch(/PORT="eighty": must be a number/);
    expect(problems.find((p) => p.startsWith('WEBHOOK_ALLOW_INSECURE_URLS='))).toMatch(/must be true or false/);
    expect(problems.find((p) => p.startsWith('DATABASE_URL='))).toMatch(/valid PostgreSQL URL/);
  });

  it('rejects an unknown LOG_LEVEL and an out-of-range PORT', () => {
    expect(problemsOf({ LOG_LEVEL: 'loud' })[0]).toMatch(/^LOG_LEVEL="loud": /);
    expect(problemsOf({ PORT: '70000' })[0]).toMatch(/^PORT="70000": /);
  });

  it('requires OIDC_ISSUER and OIDC_CLIENT_ID together', () => {
    expect(problemsOf({ OIDC_ISSUER: 'https://id.example.com' })[0]).toMatch(/OIDC_ISSUER and OIDC_CLIENT_ID/);
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'gc' }).oidc?.clientId).toBe('gc');
  });

  it('makes the server exit with one line per bad variable before touching the database', async () => {
    const r = await runCommand(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../src/main.ts')], {
      env: { ...process.env, PORT: 'x', LOG_LEVEL: 'nope', DATABASE_URL: '' },
      timeoutMs: 60_000,
    });
    expect(r.status).toBe(78);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.startsWith('config error: '))).toBe(true);
  });
});
