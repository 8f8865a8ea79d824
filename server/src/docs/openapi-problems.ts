import {
  type ErrorCode,
  errorCodes,
  errorMeanings,
  errorStatus,
  fieldErrorCodes,
  fieldErrorMeanings,
  problemTitle,
  type RouteMetadata,
} from '@gathercast/contract';
import { type AppRoute, isZodType } from '@ts-rest/core';

/**
 * Per-operation problem responses for the OpenAPI document: exactly the codes an operation can answer,
 * each status listing its codes as an enum. The codes every operation of a kind can answer are derived
 * here from how the HTTP edge works (body parsing, authentication, idempotency); the rest are declared on
 * the contract route (`metadata.errors`).
 */

/** Codes never answered by the public API (every contract route is built). */
const unpublished = new Set<ErrorCode>(['not_implemented', 'method_not_allowed']);
export const publicErrorCodes = errorCodes.filter((c) => !unpublished.has(c));

const workspaceScoped = new Set<RouteMetadata['access']>(['member', 'admin', 'memberSession']);

export const takesBody = (route: AppRoute) =>
  route.method !== 'GET' && 'body' in route && isZodType(route.body);

export function problemCodesOf(route: AppRoute): ErrorCode[] {
  const meta = route.metadata as RouteMetadata | undefined;
  const codes = new Set<ErrorCode>(['bad_request', 'unauthorized', 'internal_error']);
  if (takesBody(route)) {
    codes.add('payload_too_large');
    codes.add('unsupported_media_type');
  }
  if (route.method !== 'GET') codes.add('csrf_rejected');
  if (route.method === 'POST' && meta?.replayable !== false) {
    codes.add('idempotency_key_reused');
    codes.add('conflict');
  }
  if (meta && workspaceScoped.has(meta.access)) {
    codes.add('forbidden');
    codes.add('not_found');
  }
  if (route.pathParams || /:\w/.test(route.path)) codes.add('not_found');
  // Every call with a credential spends the management API's budgets (http/api-limits.ts); a scoped key can lack the route's scope.
  if (meta && meta.access !== 'public') codes.add('rate_limited');
  if (meta?.scope) codes.add('forbidden');
  for (const code of meta?.errors ?? []) codes.add(code);
  return publicErrorCodes.filter((c) => codes.has(c));
}

const statusText: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service unavailable',
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const rateLimitHeaders = {
  'RateLimit-Limit': header('RateLimitLimit'),
  'RateLimit-Remaining': header('RateLimitRemaining'),
  'RateLimit-Reset': header('RateLimitReset'),
  'RateLimit-Policy': header('RateLimitPolicy'),
};
export const requestIdHeader = { 'x-request-id': header('RequestId') };

/** The error responses of one operation, by status. */
export function problemResponses(route: AppRoute): Record<string, Record<string, unknown>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of problemCodesOf(route)) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const rateLimited = problemCodesOf(route).includes('rate_limited');
  const responses: Record<string, Record<string, unknown>> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = { ...requestIdHeader };
    if (status === 401) headers['WWW-Authenticate'] = header('WWWAuthenticate');
    if (status === 429) headers['Retry-After'] = header('RetryAfter');
    if (rateLimited && (status === 429 || codes.includes('invalid_credentials')))
      Object.assign(headers, rateLimitHeaders);
    const first = codes[0]!;
    responses[String(status)] = {
      description: `${statusText[status] ?? status}: ${codes.map((c) => `\`${c}\` (${errorMeanings[c]})`).join('; ')}`,
      headers,
      content: {
        'application/problem+json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Problem' },
              { type: 'object', properties: { code: { type: 'string', enum: codes } } },
            ],
          },
          example: {
            type: `http://localhost:3000/docs/errors/${first}`,
            title: problemTitle(first),
            status,
            code: first,
            detail: errorMeanings[first],
            ...(first === 'bad_request' ? { errors: [{ path: 'body.title', code: 'required', message: 'Required' }] } : {}),
            requestId: '0b6c1f7e-2a51-4c43-9d3b-5f0e8a1d2c34',
          },
        },
      },
    };
  }
  return responses;
}

/** Components shared by every problem response: the Problem schema, the code enum and the headers. */
export const problemComponents = {
  schemas: {
    Problem: {
      type: 'object',
      description:
        'Every error: `application/problem+json` with a stable `code`. Branch on `code` and the HTTP status.',
      required: ['type', 'title', 'status', 'code', 'detail'],
      properties: {
        type: {
          type: 'string',
          format: 'uri',
          description: 'A page explaining the code: `{PUBLIC_BASE_URL}/docs/errors/<code>`',
        },
        title: {
          type: 'string',
          description: 'RFC 9457: the code in words (`Invalid state`), the same for every occurrence of the code',
        },
        status: { type: 'integer', description: 'RFC 9457: the HTTP status code of this answer' },
        code: { $ref: '#/components/schemas/ErrorCode' },
        detail: { type: 'string', description: 'Human-readable, about this occurrence; the text may change' },
        errors: {
          type: 'array',
          description: '`bad_request` only: one entry per invalid field',
          items: {
            type: 'object',
            required: ['path', 'code', 'message'],
            properties: {
              path: {
                type: 'string',
                description:
                  'Where the invalid value is: the part of the request (`body`, `query`, `params` for the path, `headers`), then the field, dot-separated: `body.title`, `body.phases.0.config.roomSize`, `query.cursor`, `headers.idempotency-key`',
              },
              code: {
                type: 'string',
                enum: [...fieldErrorCodes],
                description: fieldErrorCodes.map((c) => `- \`${c}\`: ${fieldErrorMeanings[c]}`).join('\n'),
              },
              message: { type: 'string', description: 'Human-readable; the text may change' },
            },
          },
        },
        requestId: {
          type: 'string',
          description:
            'The request id, the same as the `x-request-id` response header; quote it when reporting a problem',
        },
      },
    },
    ErrorCode: {
      type: 'string',
      enum: publicErrorCodes,
      description: publicErrorCodes
        .map((c) => `- \`${c}\` (${errorStatus[c]}): ${errorMeanings[c]}`)
        .join('\n'),
    },
  },
  headers: {
    RequestId: {
      description:
        'The request id: the incoming `x-request-id` when it is 1–128 of `A-Za-z0-9._:-`, else a new UUID',
      schema: { type: 'string' },
    },
    RetryAfter: {
      description: 'Seconds to wait before trying again',
      schema: { type: 'integer', minimum: 1 },
    },
    WWWAuthenticate: {
      description:
        'The accepted schemes: `Bearer realm="gathercast"` (with `error="invalid_token"` when a Bearer token was refused) and `ApiKey realm="gathercast", header="x-api-key"`',
      schema: { type: 'string' },
    },
    RateLimitLimit: {
      description: 'Requests allowed in the current window',
      schema: { type: 'integer', minimum: 1 },
    },
    RateLimitRemaining: {
      description: 'Requests left in the current window',
      schema: { type: 'integer', minimum: 0 },
    },
    RateLimitReset: {
      description: 'Seconds until the window starts over',
      schema: { type: 'integer', minimum: 0 },
    },
    RateLimitPolicy: { description: 'The window: `<limit>;w=<window seconds>`', schema: { type: 'string' } },
  },
};

type Json = Record<string, unknown>;
const pascal = (code: string) => code.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/**
 * Problem responses that several operations answer identically (same status, codes and headers) move
 * to `components.responses` and are referenced: the document stays small enough for reference renderers
 * and code generators, and a generated client gets one named type per shared answer. Each is named after
 * its codes (`Unauthorized`, `CsrfRejectedOrForbidden`). Returns the components; rewrites `paths`.
 */
export function shareProblemResponses(
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>,
): Json {
  const uses = new Map<string, number>();
  const each = (visit: (responses: Record<string, Json>, status: string, key: string) => void) => {
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) >= 400) visit(op.responses, status, JSON.stringify(response));
        }
      }
    }
  };
  each((_r, _s, key) => uses.set(key, (uses.get(key) ?? 0) + 1));
  const names = new Map<string, string>();
  const shared: Json = {};
  each((responses, status, key) => {
    if ((uses.get(key) ?? 0) < 2) return;
    let name = names.get(key);
    if (!name) {
      const codes = codesOf(responses[status]!);
      const base = codes.map(pascal).join('Or');
      name = base;
      for (let n = 2; name in shared; n++) name = `${base}${n}`;
      names.set(key, name);
      shared[name] = responses[status];
    }
    responses[status] = { $ref: `#/components/responses/${name}` };
  });
  return Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
}

function codesOf(response: Json): string[] {
  const media = (
    response.content as Record<
      string,
      { schema: { allOf: { properties?: { code?: { enum?: string[] } } }[] } }
    >
  )['application/problem+json'];
  return media?.schema.allOf[1]?.properties?.code?.enum ?? ['Problem'];
}
