// Generates test-vectors.json with a plain node:crypto HMAC, independent of the package code.
// Usage: node scripts/generate-test-vectors.mjs [--write]
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const T = 1700000000;
const SECRET = 'whsec_test_0123456789abcdef';
const NEW_SECRET = 'whsec_test_rotated_fedcba9876543210';
const ID = '0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10';
const REFERENCE_BODY = `{"id":"${ID}","type":"event.published"}`;
const QUESTION_ID = '5d2b7e0a-8c1f-4e39-b6a4-0f9e3c7d1a22';
const QUESTION_BODY = JSON.stringify({
  id: QUESTION_ID,
  type: 'question.created',
  workspaceId: 'ws_7Hq2',
  eventId: 'evt_91Lk',
  occurredAt: '2023-11-14T22:13:20.000Z',
  sequence: 41,
  questionId: 'q_3',
  text: 'Können wir die Folien bekommen? 🎤',
});
const JOINED_ID = 'c4a1d6e2-93b7-4f08-8e5d-7a2b1c0f9e33';
const PRETTY_BODY = `${JSON.stringify(
  {
    id: JOINED_ID,
    type: 'participant.joined',
    workspaceId: 'ws_7Hq2',
    eventId: 'evt_91Lk',
    occurredAt: '2023-11-14T22:13:20Z',
    sequence: 42,
    participantId: 'anon:4f1c',
    anonymous: true,
    role: 'viewer',
  },
  null,
  2,
)}\n`;

const hmac = (secret, t, body) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}.${body}`).digest('hex');
const signature = (secrets, t, body) => `t=${t},${secrets.map((s) => `v1=${hmac(s, t, body)}`).join(',')}`;
const headers = (sig, id, type) => ({ 'x-gc-signature': sig, 'x-gc-event-id': id, 'x-gc-event-type': type });

function valid(name, { signerSecrets, verifierSecrets = signerSecrets, body, id, type, now = T }) {
  return {
    name,
    signerSecrets,
    verifierSecrets,
    timestamp: T,
    body,
    headers: headers(signature(signerSecrets, T, body), id, type),
    now,
  };
}

function invalid(
  name,
  expectedCode,
  { headers: h, body = REFERENCE_BODY, verifierSecrets = [SECRET], now = T },
) {
  return { name, expectedCode, verifierSecrets, body, headers: h, now };
}

export function buildVectors() {
  const ref = signature([SECRET], T, REFERENCE_BODY);
  const refHeaders = headers(ref, ID, 'event.published');
  const v1 = ref.split(',')[1];
  return {
    description:
      'Shared vectors for Gathercast webhook signatures. A signer given signerSecrets, ' +
      'timestamp and body must produce exactly headers["x-gc-signature"] of every valid vector (one v1= per ' +
      'secret, in order). A verifier configured with verifierSecrets, whose clock reads now, must accept ' +
      'every valid vector and reject every invalid one with expectedCode.',
    scheme: {
      header: 'x-gc-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=<hex>...]',
      key: 'the whole secret string, whsec_ prefix included, as UTF-8 bytes',
      message: '<t>.<raw body>',
      toleranceSeconds: 300,
      units: 'timestamp and now are unix seconds; body is the exact raw body (UTF-8)',
    },
    valid: [
      valid('documented reference vector', {
        signerSecrets: [SECRET],
        body: REFERENCE_BODY,
        id: ID,
        type: 'event.published',
      }),
      valid('non-ASCII body is signed as UTF-8 bytes', {
        signerSecrets: [SECRET],
        body: QUESTION_BODY,
        id: QUESTION_ID,
        type: 'question.created',
      }),
      valid('whitespace and newlines of the raw body are signed as sent', {
        signerSecrets: [SECRET],
        body: PRETTY_BODY,
        id: JOINED_ID,
        type: 'participant.joined',
      }),
      valid('rotation: new and old secret sign, receiver still has the old one', {
        signerSecrets: [NEW_SECRET, SECRET],
        verifierSecrets: [SECRET],
        body: REFERENCE_BODY,
        id: ID,
        type: 'event.published',
      }),
      valid('rotation: new and old secret sign, receiver already has the new one', {
        signerSecrets: [NEW_SECRET, SECRET],
        verifierSecrets: [NEW_SECRET],
        body: REFERENCE_BODY,
        id: ID,
        type: 'event.published',
      }),
      valid('rotation: receiver configured with both secrets, old one signs', {
        signerSecrets: [SECRET],
        verifierSecrets: [NEW_SECRET, SECRET],
        body: REFERENCE_BODY,
        id: ID,
        type: 'event.published',
      }),
      valid('timestamp exactly 300 s old', {
        signerSecrets: [SECRET],
        body: REFERENCE_BODY,
        id: ID,
        type: 'event.published',
        now: T + 300,
      }),
      valid('timestamp exactly 300 s ahead', {
        signerSecrets: [SECRET],
        body: REFERENCE_BODY,
        id: ID,
        type: 'event.published',
        now: T - 300,
      }),
    ],
    invalid: [
      invalid('tampered body', 'signature_mismatch', {
        headers: refHeaders,
        body: REFERENCE_BODY.replace('published', 'started'),
      }),
      invalid('body re-serialized after JSON parsing', 'signature_mismatch', {
        headers: refHeaders,
        body: JSON.stringify(JSON.parse(REFERENCE_BODY), null, 2),
      }),
      invalid('wrong secret', 'signature_mismatch', { headers: refHeaders, verifierSecrets: [NEW_SECRET] }),
      invalid('secret without its whsec_ prefix', 'signature_mismatch', {
        headers: refHeaders,
        verifierSecrets: [SECRET.slice('whsec_'.length)],
      }),
      invalid('stale timestamp (301 s old)', 'timestamp_out_of_tolerance', {
        headers: refHeaders,
        now: T + 301,
      }),
      invalid('future timestamp (301 s ahead)', 'timestamp_out_of_tolerance', {
        headers: refHeaders,
        now: T - 301,
      }),
      invalid('missing x-gc-signature', 'missing_header', {
        headers: { 'x-gc-event-id': ID, 'x-gc-event-type': 'event.published' },
      }),
      invalid('missing x-gc-event-id', 'missing_header', {
        headers: { 'x-gc-signature': ref, 'x-gc-event-type': 'event.published' },
      }),
      invalid('malformed header: no t=', 'malformed_header', {
        headers: { ...refHeaders, 'x-gc-signature': v1 },
      }),
      invalid('malformed header: no v1=', 'malformed_header', {
        headers: { ...refHeaders, 'x-gc-signature': `t=${T}` },
      }),
      invalid('malformed header: t is not unix seconds', 'malformed_header', {
        headers: { ...refHeaders, 'x-gc-signature': `t=2023-11-14T22:13:20Z,${v1}` },
      }),
      invalid('malformed header: v1 is not 64 hex digits', 'malformed_header', {
        headers: { ...refHeaders, 'x-gc-signature': `t=${T},v1=${'z'.repeat(64)}` },
      }),
      invalid('x-gc-event-id differs from the body id', 'id_mismatch', {
        headers: { ...refHeaders, 'x-gc-event-id': QUESTION_ID },
      }),
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const json = `${JSON.stringify(buildVectors(), null, 2)}\n`;
  if (process.argv.includes('--write')) {
    writeFileSync(new URL('../test-vectors.json', import.meta.url), json);
  } else {
    process.stdout.write(json);
  }
}
