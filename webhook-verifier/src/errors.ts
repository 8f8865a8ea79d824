/** Stable machine-readable reasons a delivery was refused. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_out_of_tolerance'
  | 'signature_mismatch'
  | 'id_mismatch'
  | 'invalid_payload';

const NAME = 'WebhookVerificationError';

/**
 * Thrown (or rejected with) when a delivery does not verify. Answer it with a 400:
 * a 4xx is not retried by Gathercast. Anything else thrown by this package is a
 * programming error (`TypeError`: wrong argument types), best answered with a 5xx.
 */
export class WebhookVerificationError extends Error {
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.name = NAME;
    this.code = code;
  }

  /** `instanceof` also holds across the ESM, CJS, Node and Web copies of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      value instanceof Error && value.name === NAME && typeof (value as { code?: unknown }).code === 'string'
    );
  }
}
