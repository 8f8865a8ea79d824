import {
  type AppRoute,
  type AppRouter,
  isAppRoute,
  TsRestResponseError,
  validateResponse,
} from '@ts-rest/core';
import { JsonText } from '../lib/json-text';

type Handler = (args: unknown) => Promise<{ status: number; body: unknown }>;

/**
 * Checks every handler's answer against the contract (tests run with it), like ts-rest's own
 * `responseValidation`, which this replaces because it cannot see into a `JsonText` body: that one
 * is parsed and checked, then sent as the very text the handler produced.
 */
export function withResponseValidation(
  router: AppRouter,
  implementation: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(router)) {
    const impl = implementation[key];
    out[key] = isAppRoute(value)
      ? validating(value, impl as Handler)
      : withResponseValidation(value as AppRouter, impl as Record<string, unknown>);
  }
  return out;
}

function validating(route: AppRoute, handler: Handler): Handler {
  return async (args) => {
    let result: { status: number; body: unknown };
    try {
      result = await handler(args);
    } catch (err) {
      if (!(err instanceof TsRestResponseError)) throw err;
      result = { status: err.statusCode, body: err.body };
    }
    if (result.body instanceof JsonText) {
      validateResponse({
        appRoute: route,
        response: { status: result.status, body: JSON.parse(result.body.text) },
      });
      return result;
    }
    return { ...result, ...validateResponse({ appRoute: route, response: result }) };
  };
}
