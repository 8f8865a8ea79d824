import {
  type ErrorCode,
  errorCodes,
  errorStatus,
  fieldErrorCodes,
  fieldErrorMeanings,
  problemTitle,
} from '@gathercast/contract';
import { escapeHtml } from '../lib/html';

/**
 * One page per problem `code`: every problem's `type` is `{PUBLIC_BASE_URL}/docs/errors/<code>`, so
 * the URI a client logs explains itself. A code without an entry here still gets a page (and the docs
 * test fails until it is written).
 */
export interface ErrorDoc {
  title: string;
  /** What happened, from the caller's side. */
  meaning: string;
  /** What to do about it. */
  fix: string;
  /** A representative `detail`. */
  example: string;
}

export const errorDocs: Partial<Record<ErrorCode, ErrorDoc>> = {
  bad_request: {
    title: 'Bad request',
    meaning: 'The request is malformed: a body, query or header is missing, of the wrong type or out of range, or the body is not valid JSON. The problem carries `errors[]`, one entry per invalid field, each with a `path` such as `body.title` or `query.limit` (the part of the request, then the field), a stable `code` such as `required`, `too_long` or `invalid_enum`, and a `message` for people.',
    fix: 'Fix the named fields and send again. Do not retry unchanged: the same request always gets the same answer.',
    example: 'Invalid request: body.title: String must contain at least 1 character(s)',
  },
  role_not_on_event: {
    title: 'Role not on this event',
    meaning: "The role asked for (in a membership or an event invite) has no place in any of the event's phases: a `speaker` on an event that has only meetings, for example. The problem carries `acceptedRoles`, the roles the event accepts.",
    fix: 'Pick one of `acceptedRoles`, or add a phase whose modality has that role first.',
    example: 'Role speaker is not on this event; it accepts host, participant, workspace_admin',
  },
  invalid_token: {
    title: 'Invalid token',
    meaning: 'A one-time or signed token is unknown, expired, already used, or (for guest JWTs) not signed by an active guest integration of the workspace.',
    fix: 'Ask for a fresh token (a new verification or reset link, a new entry link, a new guest JWT). Tokens are single use.',
    example: 'The token is unknown, expired or already used',
  },
  unauthorized: {
    title: 'Unauthorized',
    meaning: 'No credentials were sent, or the API key or session matches nothing: unknown, revoked or expired.',
    fix: 'Send a valid `x-api-key` or `Authorization: Bearer` token. A revoked key stays revoked: create a new one.',
    example: 'Missing or invalid credentials',
  },
  invalid_credentials: {
    title: 'Invalid credentials',
    meaning: 'Sign-in with an email and password failed. Unknown emails and wrong passwords get the same answer, on purpose.',
    fix: 'Check the email and password, or reset the password. Ten failures in 15 minutes lock sign-in for that email and address for a while (`rate_limited`).',
    example: 'Invalid email or password',
  },
  sign_in_required: {
    title: 'Sign-in required',
    meaning: 'A signed-out caller asked for a live-gateway token for a phase only signed-in people can join (a meeting, breakout or rotation). Anonymous viewers can only watch broadcasts.',
    fix: 'Sign the person in (account, registration entry link or partner guest session) and ask again with that session.',
    example: 'Sign in to join this event',
  },
  forbidden: {
    title: 'Forbidden',
    meaning: 'The caller is authenticated but may not do this: a member calling an admin-only route, an API key on a route that needs a person, or a change the rules never allow (such as removing an owner).',
    fix: "Use a credential with the right standing (an owner or admin, or the workspace's API key) or a route meant for this caller.",
    example: 'Only owners and admins may do this',
  },
  csrf_rejected: {
    title: 'Cross-site request rejected',
    meaning: "A cookie-authenticated write came from a browser page on an origin that is neither the service's own nor one listed in `CORS_ORIGINS`.",
    fix: 'Serve the page from an allowed origin (ask the operator to add it to `CORS_ORIGINS`), or call with a Bearer token or API key, which browsers never attach on their own.',
    example: 'Cross-site request from https://elsewhere.example refused',
  },
  not_found: {
    title: 'Not found',
    meaning: "The resource does not exist, or it belongs to another workspace: the two answers are identical, so nothing about other tenants leaks. Unknown routes get it too.",
    fix: 'Check the id and that the credential belongs to the workspace that owns the resource.',
    example: 'Event not found',
  },
  method_not_allowed: {
    title: 'Method not allowed',
    meaning: 'The path exists, but not with this HTTP method. The `Allow` header lists the methods it takes.',
    fix: 'Use one of the methods in `Allow` (the API reference lists each path\'s operations).',
    example: 'DELETE is not allowed on /v1/events; allowed: GET, POST',
  },
  conflict: {
    title: 'Conflict',
    meaning: 'The request conflicts with the current state: a duplicate that is still being processed, a repeated Idempotency-Key whose first answer carried a secret, an only owner leaving their workspace.',
    fix: 'Read the detail: it says what conflicts. Fetch the current state before trying again.',
    example: 'A request with this Idempotency-Key is still being processed; retry later',
  },
  slug_taken: {
    title: 'Slug taken',
    meaning: 'Another workspace already uses this slug.',
    fix: 'Choose another slug, or leave it out to get one made from the name.',
    example: 'The slug acme is taken',
  },
  email_taken: {
    title: 'Email taken',
    meaning: 'An account already uses this email address.',
    fix: 'Sign in to that account, or reset its password.',
    example: 'An account with this email already exists',
  },
  event_full: {
    title: 'Event full',
    meaning: 'The event has reached its registration capacity. Someone already registered still gets `alreadyRegistered: true`.',
    fix: 'Raise the event\'s `capacity` (a member of the workspace can), or turn on the event\'s waiting list (`PUT /v1/events/{id}/registration-settings` with `waitlist: true`): registrations past capacity then wait in order instead of being refused.',
    example: 'The event is full',
  },
  invalid_state: {
    title: 'Invalid state',
    meaning: 'The call is not allowed in the current lifecycle state: starting a draft, pausing a broadcast that is not live, editing phases of an ended event. Nothing changed.',
    fix: 'Fetch the resource, check its `status`, and make the call that fits it (the events guide has the state table).',
    example: 'Cannot start an event in status draft',
  },
  account_exists: {
    title: 'Account exists',
    meaning: "A partner's guest JWT carries an email that belongs to a Gathercast account. Guests are for people without an account.",
    fix: 'Have the person sign in to their account instead of joining as a guest.',
    example: 'An account uses this email: sign in instead',
  },
  idempotency_key_reused: {
    title: 'Idempotency key reused',
    meaning: 'This `Idempotency-Key` was already used, within 24 hours, for a request with a different body.',
    fix: 'Use a new key for every distinct request; reuse a key only to retry the identical request.',
    example: 'This Idempotency-Key was used with a different request body',
  },
  payload_too_large: {
    title: 'Payload too large',
    meaning: 'The request body is larger than 1 MiB.',
    fix: 'Send less per request (split a transcript, for example).',
    example: 'The request body is larger than 1 MiB',
  },
  unsupported_media_type: {
    title: 'Unsupported media type',
    meaning: 'The request carried a body that is not JSON (form-encoded, plain text, XML, multipart). Every request body of the API is JSON; a body of another type is refused rather than silently ignored.',
    fix: 'Send the body as JSON with `Content-Type: application/json`.',
    example: 'Request bodies are JSON: send Content-Type: application/json (got application/x-www-form-urlencoded)',
  },
  headers_too_large: {
    title: 'Request headers too large',
    meaning: "The request line and headers together exceed 16 KiB (a very long `Idempotency-Key`, query string or cookie, for example). Node's HTTP parser refuses the request before any route sees it; the connection is closed after this answer.",
    fix: 'Send shorter headers and query strings: an `Idempotency-Key` is at most 255 characters, and large data belongs in a JSON body.',
    example: 'The request line and headers together exceed 16 KiB',
  },
  request_timeout: {
    title: 'Request timeout',
    meaning: 'The request did not arrive in time: its headers within 60 seconds, or the whole request within 300 seconds. The connection is closed after this answer.',
    fix: 'Send the request at once; retry on a slow network.',
    example: 'The request was not received in time',
  },
  rate_limited: {
    title: 'Rate limited',
    meaning: 'Too many requests in the window of a limited route (sign-in failures, help chat). The `Retry-After` header says how many seconds until the window frees up.',
    fix: 'Wait `Retry-After` seconds, then retry. Do not retry sooner: refused attempts still count for sign-in.',
    example: 'Too many requests; retry in 60 seconds',
  },
  internal_error: {
    title: 'Internal error',
    meaning: 'A bug on our side. The request may or may not have taken effect.',
    fix: 'Retry with the same `Idempotency-Key` (a 5xx is never stored, so the retry runs again). If it persists, report it with the `requestId` of the answer.',
    example: 'Something went wrong on our side; quote request id 5c1c6f0e-… when reporting it',
  },
  not_implemented: {
    title: 'Not implemented',
    meaning: 'The route exists in the contract but this server does not serve it yet.',
    fix: 'Check the API reference of the server you call; upgrade the server.',
    example: 'Not implemented yet',
  },
  idp_not_configured: {
    title: 'Identity provider not configured',
    meaning: 'Identity-provider (OIDC) sign-in was asked for, but this server has no `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`.',
    fix: 'Sign in with email and password, or ask the operator to configure the identity provider.',
    example: 'Identity-provider sign-in is not configured',
  },
  service_unavailable: {
    title: 'Service unavailable',
    meaning: "A dependency is unavailable: the database (the answer of `/readyz` too), or a partner's key set that could not be fetched.",
    fix: 'Retry with backoff; honour `Retry-After` when present. A load balancer should take a server whose `/readyz` fails out of rotation.',
    example: 'The database is unavailable',
  },
};

export const errorPath = (code: string) => `/docs/errors/${code}`;

export function errorDocOf(code: ErrorCode): ErrorDoc {
  return (
    errorDocs[code] ?? {
      title: code.replace(/_/g, ' '),
      meaning: 'An error the API answers with this code.',
      fix: 'Read the `detail` of the answer.',
      example: code,
    }
  );
}

/** Inline Markdown in the texts above: `code` only. */
const inline = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');

export function errorPageBody(code: ErrorCode, errorsBase: string): string {
  const doc = errorDocOf(code);
  const status = errorStatus[code];
  const example = JSON.stringify(
    {
      type: `${errorsBase}/${code}`,
      title: problemTitle(code),
      status,
      code,
      detail: doc.example,
      ...(code === 'bad_request'
        ? { errors: [{ path: 'body.title', code: 'too_short', message: 'String must contain at least 1 character(s)' }] }
        : {}),
      requestId: '5c1c6f0e-8a2b-4d3e-9f10-7b6a5c4d3e2f',
    },
    null,
    2,
  );
  const same = errorCodes.filter((c) => c !== code && errorStatus[c] === status);
  return `<p class="eyebrow">Error code</p>
<h1><code>${code}</code></h1>
<p class="lead">${escapeHtml(doc.title)} · <span class="status status-${Math.floor(status / 100)}xx">HTTP ${status}</span></p>
<h2 id="what-it-means">What it means</h2>
<p>${inline(doc.meaning)}</p>
<h2 id="what-to-do">What to do</h2>
<p>${inline(doc.fix)}</p>
<h2 id="example">Example answer</h2>
<div class="code"><span class="code-lang">http</span><pre><code>HTTP/1.1 ${status}
content-type: application/problem+json

${escapeHtml(example)}</code></pre></div>
<p>Branch on <code>code</code> (and the HTTP status); <code>detail</code> is for people and may change; <code>requestId</code> finds the request in the server's logs.</p>
${same.length ? `<h2 id="related">Other codes with HTTP ${status}</h2><p>${same.map((c) => `<a href="${errorPath(c)}"><code>${c}</code></a>`).join(' ')}</p>` : ''}
<p><a href="/docs/errors">All error codes</a></p>`;
}

export function errorIndexBody(): string {
  const rows = errorCodes
    .map((c) => {
      const doc = errorDocOf(c);
      return `<tr><td><a href="${errorPath(c)}"><code>${c}</code></a></td><td><span class="status status-${Math.floor(errorStatus[c] / 100)}xx">${errorStatus[c]}</span></td><td>${escapeHtml(doc.title)}</td></tr>`;
    })
    .join('\n');
  return `<h1>Errors</h1>
<p class="lead">Every error is an <code>application/problem+json</code> answer with a stable <code>code</code>.</p>
<div class="code"><span class="code-lang">json</span><pre><code>{
  "type": "https://api.example.com/docs/errors/not_found",
  "title": "Not found",
  "status": 404,
  "code": "not_found",
  "detail": "Event not found",
  "requestId": "5c1c6f0e-8a2b-4d3e-9f10-7b6a5c4d3e2f"
}</code></pre></div>
<p><code>type</code> is the URL of the code's page below; <code>title</code> (the code in words) and <code>status</code> (the
HTTP status) are the RFC 9457 members, the same for every answer with that code. <code>bad_request</code> adds
<code>errors[]</code>, one entry per invalid field: its <code>path</code> starts with the part of the request the value was in
(<code>body.</code>, <code>query.</code>, <code>params.</code> for the path, <code>headers.</code>) then names the field
(<code>body.phases.0.config.roomSize</code>), its <code>code</code> is stable (table below) and its <code>message</code> is for people.
<code>rate_limited</code> (and some <code>service_unavailable</code>) answers carry <code>Retry-After</code>.
<code>requestId</code> equals the answer's <code>x-request-id</code> header (every answer has one): quote it when you
report a problem. A 401 carries <code>WWW-Authenticate</code>; a 405 carries <code>Allow</code>.</p>
<div class="table-wrap"><table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table></div>
<h2 id="field-codes">Field codes (<code>errors[].code</code>)</h2>
<div class="table-wrap"><table><thead><tr><th>code</th><th>meaning</th></tr></thead><tbody>
${fieldErrorCodes.map((c) => `<tr><td><code>${c}</code></td><td>${inline(fieldErrorMeanings[c])}</td></tr>`).join('\n')}
</tbody></table></div>`;
}
