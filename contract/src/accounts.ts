import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, isoTimestamp, meta, noContent, uuid, workspaceRoleSchema } from './common';

const c = initContract();

const email = z.string().trim().toLowerCase().email().max(320);
const password = z.string().min(8).max(1024);

export const accountEmailSchema = z.object({
  email: z.string(),
  primary: z.boolean(),
  verified: z.boolean(),
});

export const accountWorkspaceSchema = z.object({
  id: uuid,
  name: z.string(),
  slug: z.string(),
  role: workspaceRoleSchema,
});

export const accountSchema = z.object({
  id: uuid,
  email: z.string().describe('The primary email'),
  name: z.string(),
  emailVerified: z.boolean(),
  emails: z.array(accountEmailSchema),
  workspaces: z.array(accountWorkspaceSchema),
  createdAt: isoTimestamp,
});
export type Account = z.infer<typeof accountSchema>;

/** Signup and login also return the session token, for callers that send it as a Bearer token. */
export const accountSessionSchema = accountSchema.extend({
  sessionToken: z.string().describe('gcs_ session token; also set as the gc_session cookie'),
  verifyUrl: z.string().optional().describe('Only in email dev mode, on signup'),
});

export const accountsContract = c.router(
  {
    signup: {
      method: 'POST',
      path: '/v1/accounts/signup',
      body: z.object({ email, password, name: z.string().trim().min(1).max(200) }),
      responses: { 201: accountSessionSchema },
      metadata: meta({ access: 'public', errors: ['email_taken', 'rate_limited'] }),
      summary: 'Create an account, its first workspace and a session',
      description:
        'Creates an account with a password, its first workspace (the account owns it) and a signed-in session: the `gc_session` cookie is set and the same token is returned as `sessionToken` for Bearer use. A verification email is sent (in email dev mode its link is returned as `verifyUrl`). Create an API key for server-side calls next (`POST /v1/workspaces/{id}/api-keys`).'+
        ' Limited per client address and per email address (docs/limits.md); the `RateLimit-*` headers tell how many are left, and past a limit the call answers 429 `rate_limited` with `Retry-After`.',
    },
    login: {
      method: 'POST',
      path: '/v1/accounts/login',
      body: z.object({ email, password: z.string().min(1).max(1024) }),
      responses: { 200: accountSessionSchema },
      metadata: meta({ access: 'public', errors: ['invalid_credentials', 'rate_limited'] }),
      summary: 'Sign in with email and password',
      description:
        'Signs in with email and password and starts a session (cookie and `sessionToken`). Failed attempts are limited per email and per client address (10 per 15 minutes each); the `RateLimit-*` headers tell how many are left, and past the limit the call answers 429 with `Retry-After`. A successful sign-in forgives the email’s failures.',
    },
    logout: {
      method: 'POST',
      path: '/v1/accounts/logout',
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'public' }),
      summary: 'End the current session and clear the cookie',
      description:
        'Ends the session that made the call (cookie or Bearer) and clears the cookie. Without a session it only clears the cookie, so it always succeeds.',
    },
    me: {
      method: 'GET',
      path: '/v1/accounts/me',
      responses: { 200: accountSchema },
      metadata: meta({ access: 'account' }),
      summary: 'The signed-in account, its emails and workspaces',
      description:
        'The signed-in account: primary email and verification state, every email, and the workspaces it belongs to with its role in each.',
    },
    verify: {
      method: 'POST',
      path: '/v1/accounts/verify',
      body: z.object({ token: z.string().min(1).max(500) }),
      responses: { 200: z.object({ verified: z.literal(true), email: z.string() }) },
      metadata: meta({ access: 'public', errors: ['invalid_token'] }),
      summary: 'Mark an email verified with the token from the verification email',
      description:
        'Marks the email from the verification link as verified. The token is single-use and expires.',
    },
    requestPasswordReset: {
      method: 'POST',
      path: '/v1/accounts/request-password-reset',
      body: z.object({ email }),
      responses: {
        200: z.object({
          requested: z.literal(true),
          resetUrl: z.string().optional().describe('Only in email dev mode'),
        }),
      },
      metadata: meta({ access: 'public', errors: ['rate_limited'] }),
      summary: 'Email a password-reset link (same answer whatever the address)',
      description:
        'Emails a single-use password-reset link when the address belongs to an account. The answer is the same whether or not it does, so the call cannot be used to discover accounts.'+
        ' Limited per client address and per email address (docs/limits.md); the `RateLimit-*` headers tell how many are left, and past a limit the call answers 429 `rate_limited` with `Retry-After`.',
    },
    resetPassword: {
      method: 'POST',
      path: '/v1/accounts/reset-password',
      body: z.object({ token: z.string().min(1).max(500), password }),
      responses: { 200: z.object({ reset: z.literal(true) }) },
      metadata: meta({ access: 'public', errors: ['invalid_token'] }),
      summary: 'Set a new password; ends every other session of the account',
      description:
        'Sets a new password (at least 8 characters) with the token from the reset email. Every other session of the account ends, on every server process, before the call answers.',
    },
  },
  { commonResponses: commonErrors },
);

export const idpContract = c.router(
  {
    start: {
      method: 'GET',
      path: '/v1/auth/idp/start',
      query: z.object({ returnTo: z.string().max(2000).optional() }),
      responses: { 302: noContent },
      metadata: meta({ access: 'public', errors: ['idp_not_configured', 'service_unavailable'] }),
      summary: 'Redirect to the identity provider (state + PKCE)',
      description:
        'Starts identity-provider sign-in (OpenID Connect, authorization code with PKCE): redirects the browser to the provider. `returnTo` (a path on this site) is where the browser lands afterwards. Answers 503 `idp_not_configured` when no provider is configured.',
    },
    callback: {
      method: 'GET',
      path: '/v1/auth/idp/callback',
      query: z.object({
        code: z.string().optional(),
        state: z.string().optional(),
        error: z.string().optional(),
        error_description: z.string().optional(),
        iss: z.string().optional(),
      }),
      responses: { 302: noContent },
      metadata: meta({ access: 'public', errors: ['idp_not_configured', 'invalid_token', 'service_unavailable'] }),
      summary: 'Exchange the code, find or create the account, set the session cookie, redirect',
      description:
        'Where the identity provider sends the browser back: checks state and PKCE, exchanges the code, finds or creates the account by its verified email, sets the session cookie and redirects to `returnTo`.',
    },
  },
  { commonResponses: commonErrors },
);
