import { describe, expect, it } from 'vitest';
import { atReference, clockAt, failure, nodeEntries, reference, SECRET, vectors } from './helpers';

const body = reference.body;
const headers = reference.headers;

describe.each(Object.entries(nodeEntries))('verifySignatureSync (%s)', (_, gc) => {
  it('returns the verified id and timestamp without parsing the body', () => {
    expect(gc.verifySignatureSync(body, headers, SECRET, atReference)).toEqual({
      id: headers['x-gc-event-id'],
      timestamp: Number(headers['x-gc-signature'].slice(2, headers['x-gc-signature'].indexOf(','))),
    });
  });

  it('accepts a Buffer body', () => {
    expect(gc.verifySignatureSync(Buffer.from(body), headers, SECRET, atReference).id).toBe(headers['x-gc-event-id']);
  });

  it('refuses a tampered body with signature_mismatch', async () => {
    const err = await failure(() => gc.verifySignatureSync(`${body} `, headers, SECRET, atReference));
    expect(err.code).toBe('signature_mismatch');
  });

  it('refuses a stale timestamp with timestamp_out_of_tolerance', async () => {
    const err = await failure(() => gc.verifySignatureSync(body, headers, SECRET, { now: () => (reference.now + 301) * 1000 }));
    expect(err.code).toBe('timestamp_out_of_tolerance');
  });

  it('refuses an x-gc-event-id that is not the body id with id_mismatch', async () => {
    const other = { ...headers, 'x-gc-event-id': '11111111-1111-4111-8111-111111111111' };
    const err = await failure(() => gc.verifySignatureSync(body, other, SECRET, atReference));
    expect(err.code).toBe('id_mismatch');
  });

  it('checks the id by parsing when the body does not start with it', () => {
    const reordered = JSON.stringify({ type: 'event.published', id: headers['x-gc-event-id'] });
    const signed = { ...headers, 'x-gc-signature': gc.signSync({ secret: SECRET, payload: reordered, timestamp: reference.now }) };
    expect(gc.verifySignatureSync(reordered, signed, SECRET, atReference).id).toBe(headers['x-gc-event-id']);
    const wrong = { ...signed, 'x-gc-event-id': '11111111-1111-4111-8111-111111111111' };
    expect(() => gc.verifySignatureSync(reordered, wrong, SECRET, atReference)).toThrow(/differs/);
  });

  it.each(vectors.valid.map((v) => [v.name, v] as const))('accepts valid vector: %s', (_name, v) => {
    expect(gc.verifySignatureSync(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) })).toEqual({
      id: JSON.parse(v.body).id,
      timestamp: v.timestamp,
    });
  });

  it.each(vectors.invalid.map((v) => [v.name, v] as const))('rejects invalid vector: %s', (_name, v) => {
    expect(() => gc.verifySignatureSync(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) })).toThrow(
      expect.objectContaining({ code: v.expectedCode }),
    );
  });

  it('accepts headers given as a Headers instance', () => {
    expect(gc.verifySignatureSync(body, new Headers(headers), SECRET, atReference).id).toBe(headers['x-gc-event-id']);
  });

  it.each([
    ['verifySignatureSync', 'string'],
    ['verifySignatureSync', 'Buffer'],
    ['verifySync', 'string'],
    ['verifySync', 'Buffer'],
  ] as const)(
    '%s checks the usual delivery (%s body) in one pass: reads the signature header once',
    (fn, kind) => {
      let reads = 0;
      const counted = new Proxy(headers, {
        get(target, name) {
          if (name === 'x-gc-signature') reads++;
          return Reflect.get(target, name);
        },
      });
      const raw = kind === 'string' ? body : Buffer.from(body);
      expect(gc[fn](raw, counted, SECRET, atReference).id).toBe(headers['x-gc-event-id']);
      expect(reads).toBe(1);
    },
  );
});
