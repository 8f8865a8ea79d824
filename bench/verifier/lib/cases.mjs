// One case per verifier. Each prepares signed deliveries with its own scheme (outside the
// timed loop) and returns a function that verifies delivery i, throwing when it does not verify.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as gcNode from '@gathercast/webhook-verifier/node';
import * as gcWeb from '@gathercast/webhook-verifier/web';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';

const GC_SECRET = `whsec_${randomBytes(24).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

function gcDeliveries(payloads) {
  const t = now();
  return payloads.map((p) => ({
    ...p,
    t,
    headers: {
      'x-gc-signature': gcNode.signSync({ secret: GC_SECRET, payload: p.body, timestamp: t }),
      'x-gc-event-id': p.id,
      'x-gc-event-type': 'question.created',
      'content-type': 'application/json',
    },
  }));
}

/** What a receiver writes by hand with node:crypto: HMAC the message, compare in constant time. */
function bare(payloads, { parse, buffer = false }) {
  const deliveries = gcDeliveries(payloads).map((d) => ({
    ...d,
    v1: d.headers['x-gc-signature'].split('v1=')[1],
  }));
  return (i) => {
    const d = deliveries[i];
    const body = buffer ? d.bytes : d.body;
    const mac = createHmac('sha256', GC_SECRET).update(`${d.t}.`).update(body).digest();
    if (!timingSafeEqual(mac, Buffer.from(d.v1, 'hex'))) throw new Error('mismatch');
    return parse ? JSON.parse(buffer ? body.toString('utf8') : body) : true;
  };
}

function standardWebhooks(payloads) {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const wh = new Webhook(secret);
  const deliveries = payloads.map((p) => {
    const at = new Date();
    const signature = wh.sign(p.id, at, p.body);
    return {
      body: p.body,
      headers: {
        'webhook-id': p.id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
    };
  });
  return (i) => wh.verify(deliveries[i].body, deliveries[i].headers);
}

function stripe(payloads) {
  const client = new Stripe('sk_test_bench_not_a_real_key');
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  const deliveries = payloads.map((p) => ({
    body: p.bytes,
    header: client.webhooks.generateTestHeaderString({ payload: p.body, secret, timestamp: now() }),
  }));
  return (i) => client.webhooks.constructEvent(deliveries[i].body, deliveries[i].header, secret);
}

/**
 * `baseline`: the bare HMAC check, the first ratio column. `same work` (`sameAs`): that check plus
 * JSON.parse on the same body type, which is what each verifier here does since it returns the
 * parsed event; our cases are judged against it.
 */
export function buildCases(payloads) {
  const gc = gcDeliveries(payloads);
  const BARE_PARSE = 'bare node:crypto + JSON.parse';
  const BARE_PARSE_BUFFER = 'bare node:crypto + JSON.parse (Buffer body)';
  return [
    {
      name: 'bare node:crypto (createHmac + timingSafeEqual)',
      kind: 'sync',
      baseline: true,
      fn: bare(payloads, { parse: false }),
    },
    { name: BARE_PARSE, kind: 'sync', fn: bare(payloads, { parse: true }) },
    { name: BARE_PARSE_BUFFER, kind: 'sync', fn: bare(payloads, { parse: true, buffer: true }) },
    {
      name: 'gathercast verifySync (string body)',
      kind: 'sync',
      sameAs: BARE_PARSE,
      fn: (i) => gcNode.verifySync(gc[i].body, gc[i].headers, GC_SECRET),
    },
    {
      name: 'gathercast verifySync (Buffer body)',
      kind: 'sync',
      sameAs: BARE_PARSE_BUFFER,
      fn: (i) => gcNode.verifySync(gc[i].bytes, gc[i].headers, GC_SECRET),
    },
    {
      name: 'gathercast verifySignatureSync (no parse)',
      kind: 'sync',
      signatureOnly: true,
      fn: (i) => gcNode.verifySignatureSync(gc[i].body, gc[i].headers, GC_SECRET),
    },
    {
      name: 'gathercast verify, Node entry (async)',
      kind: 'async',
      sameAs: BARE_PARSE,
      fn: (i) => gcNode.verify(gc[i].body, gc[i].headers, GC_SECRET),
    },
    {
      name: 'gathercast verify, Web entry (async, Web Crypto)',
      kind: 'async',
      fn: (i) => gcWeb.verify(gc[i].body, gc[i].headers, GC_SECRET),
    },
    { name: 'standardwebhooks Webhook#verify', kind: 'sync', fn: standardWebhooks(payloads) },
    { name: 'stripe.webhooks.constructEvent', kind: 'sync', fn: stripe(payloads) },
  ];
}
