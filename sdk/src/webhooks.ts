/**
 * Webhook verification, bundled in from @gathercast/webhook-verifier (its Web Crypto build: Node 20+,
 * Deno, Bun, workers and browsers), so one install covers calls and deliveries:
 *
 *   import { constructEvent } from '@gathercast/sdk';
 *   const event = await constructEvent(rawBody, request.headers, process.env.GATHERCAST_WEBHOOK_SECRET!);
 *
 * The verifier's functions are re-exported under the SDK's own declarations (the generated
 * `WebhookEvent`), checked against the verifier's signatures here, so the published declarations
 * stay self-contained. On Node, @gathercast/webhook-verifier itself adds a faster `node:crypto` path
 * and synchronous variants.
 */
import * as verifier from '@gathercast/webhook-verifier';
import type { WebhookEvent } from './generated/api';

/** The raw request body, exactly as received: never the parsed JSON. */
export type WebhookPayload = string | ArrayBuffer | ArrayBufferView;
/** A `Headers` instance, Node's `req.headers`, or a plain object (looked up case-insensitively). */
export type WebhookHeaders =
  | { get(name: string): string | null | undefined }
  | Record<string, string | readonly string[] | null | undefined>;
/** One signing secret (`whsec_…`), or several while rotating. */
export type WebhookSecret = string | readonly string[];
export interface VerifyOptions {
  /** Largest accepted |now − t|, in seconds, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** Clock returning the current time in milliseconds since the epoch, like `Date.now` (the default). */
  now?: () => number;
}
/** Minimal shape of a Fetch API `Request` (Next.js route handlers, Workers, Hono, Deno, Bun). */
export interface RequestLike {
  headers: { get(name: string): string | null | undefined };
  arrayBuffer(): Promise<ArrayBuffer>;
}
/** Stable machine-readable reasons a delivery was refused. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'id_mismatch'
  | 'invalid_payload';

/** A delivery that does not verify: answer it with a 400 (a 4xx is not retried). */
export interface WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;
}
// Fails to compile when the verifier's codes and these differ, so the two cannot drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type _CodesMatchVerifier = Assert<Same<WebhookVerificationErrorCode, verifier.WebhookVerificationErrorCode>>;
type Assert<T extends true> = T;
export const WebhookVerificationError: new (
  code: WebhookVerificationErrorCode,
  message: string,
) => WebhookVerificationError = verifier.WebhookVerificationError;

/**
 * Verifies a delivery and resolves to its parsed, typed event; rejects with a
 * `WebhookVerificationError` otherwise. `payload` must be the raw body.
 */
export const constructEvent: (
  payload: WebhookPayload,
  headers: WebhookHeaders,
  secret: WebhookSecret,
  options?: VerifyOptions,
) => Promise<WebhookEvent> = verifier.constructEvent;

/** The same as `constructEvent`, under the verifier's name. */
export const verifyWebhook = constructEvent;

/** Verifies a Fetch API `Request`, reading its raw body itself (the body can be read only once). */
export const verifyWebhookRequest: (
  request: RequestLike,
  secret: WebhookSecret,
  options?: VerifyOptions,
) => Promise<WebhookEvent> = verifier.verifyRequest;
