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
      metadata: meta({ access: 'public' }),
      summary: 'Create an account, its first workspace and a session',
    },
    login: {
      method: 'POST',
      path: '/v1/accounts/login',
      body: z.object({ email, password: z.string().min(1).max(1024) }),
      responses: { 200: accountSessionSchema },
      metadata: meta({ access: 'public' }),
      summary: 'Sign in with email and password',
    },
    logout: {
      method: 'POST',
      path: '/v1/accounts/logout',
      body: noContent,
      responses: { 204: noContent },
      metadata: meta({ access: 'public' }),
      summary: 'End the current session and clear the cookie',
    },
    me: {
      method: 'GET',
      path: '/v1/accounts/me',
      responses: { 200: accountSchema },
      metadata: meta({ access: 'account' }),
      summary: 'The signed-in account, its emails and workspaces',
    },
    verify: {
      method: 'POST',
      path: '/v1/accounts/verify',
      body: z.object({ token: z.string().min(1).max(500) }),
      responses: { 200: z.object({ verified: z.literal(true), email: z.string() }) },
      metadata: meta({ access: 'public' }),
      summary: 'Mark an email verified with the token from the verification email',
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
      metadata: meta({ access: 'public' }),
      summary: 'Email a password-reset link (same answer whatever the address)',
    },
    resetPassword: {
      method: 'POST',
      path: '/v1/accounts/reset-password',
      body: z.object({ token: z.string().min(1).max(500), password }),
      responses: { 200: z.object({ reset: z.literal(true) }) },
      metadata: meta({ access: 'public' }),
      summary: 'Set a new password; ends every other session of the account',
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
      metadata: meta({ access: 'public' }),
      summary: 'Redirect to the identity provider (state + PKCE)',
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
      metadata: meta({ access: 'public' }),
      summary: 'Exchange the code, find or create the account, set the session cookie, redirect',
    },
  },
  { commonResponses: commonErrors },
);
