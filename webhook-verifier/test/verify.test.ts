import { describe, expect, it } from 'vitest';
import { atReference, clockAt, entries, failure, reference, SECRET } from './helpers';

const body = reference.body;
const headers = reference.headers;
const encoded = new TextEncoder().encode(body);

describe.each(Object.entries(entries))('%s', (_, gc) => {
  describe('raw body input', () => {
    it('accepts a string', async () => {
      await expect(gc.verify(body, headers, SECRET, atReference)).resolves.toMatchObject({
        type: 'event.published',
      });
    });

    it('accepts a Buffer', async () => {
      await expect(gc.verify(Buffer.from(body), headers, SECRET, atReference)).resolves.toMatchObject({
        id: headers['x-gc-event-id'],
      });
    });

    it('accepts a Uint8Array', async () => {
      await expect(gc.verify(encoded, headers, SECRET, atReference)).resolves.toBeTruthy();
    });

    it('accepts an ArrayBuffer', async () => {
      await expect(gc.verify(encoded.slice().buffer, headers, SECRET, atReference)).resolves.toBeTruthy();
    });

    it('accepts a view into a larger buffer (a pooled Buffer, a DataView)', async () => {
      const pool = new Uint8Array(encoded.length + 16);
      pool.set(encoded, 8);
      await expect(
        gc.verify(new DataView(pool.buffer, 8, encoded.length), headers, SECRET, atReference),
      ).resolves.toBeTruthy();
    });

    it('refuses an already parsed body with a TypeError naming the cause', async () => {
      const error = await failure(() => gc.verify(JSON.parse(body), headers, SECRET, atReference));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain('was the body parsed before verification?');
    });
  });

  describe('headers input', () => {
    it('reads a Fetch API Headers instance', async () => {
      await expect(gc.verify(body, new Headers(headers), SECRET, atReference)).resolves.toBeTruthy();
    });

    it('looks up plain-object header names case-insensitively', async () => {
      const mixedCase = {
        'X-GC-Signature': headers['x-gc-signature'],
        'X-Gc-Event-Id': headers['x-gc-event-id'],
      };
      await expect(gc.verify(body, mixedCase, SECRET, atReference)).resolves.toBeTruthy();
    });

    it('reads Node IncomingHttpHeaders whose values are string arrays', async () => {
      const [t, v1] = headers['x-gc-signature'].split(',');
      const incoming = {
        'x-gc-signature': [t, `v1=${'0'.repeat(64)}`, v1],
        'x-gc-event-id': headers['x-gc-event-id'],
      };
      await expect(gc.verify(body, incoming, SECRET, atReference)).resolves.toBeTruthy();
    });

    it('treats an empty header as missing', async () => {
      const error = await failure(() =>
        gc.verify(body, { ...headers, 'x-gc-signature': '' }, SECRET, atReference),
      );
      expect(error.code).toBe('missing_header');
    });
  });

  describe('signature header', () => {
    it('accepts upper-case hex digests', async () => {
      const upper = {
        ...headers,
        'x-gc-signature': headers['x-gc-signature'].toUpperCase().replace('T=', 't=').replace('V1=', 'v1='),
      };
      await expect(gc.verify(body, upper, SECRET, atReference)).resolves.toBeTruthy();
    });

    it('ignores unknown schemes and spaces around entries', async () => {
      const [t, v1] = headers['x-gc-signature'].split(',');
      const future = { ...headers, 'x-gc-signature': ` ${t} , v2=whatever, ${v1} ` };
      await expect(gc.verify(body, future, SECRET, atReference)).resolves.toBeTruthy();
    });

    it('rejects a header with two t= entries as malformed', async () => {
      const twice = { ...headers, 'x-gc-signature': `t=1,${headers['x-gc-signature']}` };
      expect((await failure(() => gc.verify(body, twice, SECRET, atReference))).code).toBe(
        'malformed_header',
      );
    });

    it('rejects a v1= whose last two digits are not hex as malformed', async () => {
      const [t, v1] = headers['x-gc-signature'].split(',');
      const header = `${t},${v1.slice(0, -2)}zz`;
      const error = await failure(() =>
        gc.verify(body, { ...headers, 'x-gc-signature': header }, SECRET, atReference),
      );
      expect(error.code).toBe('malformed_header');
    });

    it('rejects a v1= of the wrong length as malformed', async () => {
      const header = `${headers['x-gc-signature']}00`;
      const error = await failure(() =>
        gc.verify(body, { ...headers, 'x-gc-signature': header }, SECRET, atReference),
      );
      expect(error.code).toBe('malformed_header');
    });

    it('matches any of several v1= against any of several secrets', async () => {
      const other = 'whsec_other';
      const header = await gc.sign({
        secret: [other, 'whsec_third'],
        payload: body,
        timestamp: reference.timestamp,
      });
      await expect(
        gc.verify(body, { ...headers, 'x-gc-signature': header }, [SECRET, 'whsec_third'], atReference),
      ).resolves.toBeTruthy();
    });
  });

  describe('timestamp window', () => {
    it('uses the real clock by default', async () => {
      const header = await gc.sign({ secret: SECRET, payload: body });
      await expect(gc.verify(body, { ...headers, 'x-gc-signature': header }, SECRET)).resolves.toBeTruthy();
    });

    it('rejects the reference vector today, years after its timestamp', async () => {
      expect((await failure(() => gc.verify(body, headers, SECRET))).code).toBe('timestamp_out_of_tolerance');
    });

    it('takes the injected clock in milliseconds', async () => {
      const justUnder301s = { now: () => reference.now * 1000 + 300_999 };
      await expect(gc.verify(body, headers, SECRET, justUnder301s)).resolves.toBeTruthy();
    });

    it('honours a custom toleranceSeconds', async () => {
      const options = { now: clockAt(reference.now + 60), toleranceSeconds: 59 };
      expect((await failure(() => gc.verify(body, headers, SECRET, options))).code).toBe(
        'timestamp_out_of_tolerance',
      );
    });

    it('refuses a NaN or negative toleranceSeconds instead of disabling the check', async () => {
      await expect(
        gc.verify(body, headers, SECRET, { ...atReference, toleranceSeconds: Number.NaN }),
      ).rejects.toBeInstanceOf(TypeError);
      await expect(
        gc.verify(body, headers, SECRET, { ...atReference, toleranceSeconds: -1 }),
      ).rejects.toBeInstanceOf(TypeError);
    });
  });

  describe('errors', () => {
    it('are Errors with a stable code and the class name', async () => {
      const error = await failure(() => gc.verify(`${body} `, headers, SECRET, atReference));
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(gc.WebhookVerificationError);
      expect(error).toMatchObject({ name: 'WebhookVerificationError', code: 'signature_mismatch' });
    });

    it('explain a signature mismatch by the usual cause', async () => {
      const error = await failure(() => gc.verify(`${body} `, headers, SECRET, atReference));
      expect(error.message).toContain('was the body parsed before verification?');
    });

    it('hint at a secret stripped of its whsec_ prefix', async () => {
      const error = await failure(() => gc.verify(body, headers, SECRET.slice(6), atReference));
      expect(error.message).toContain('whsec_');
    });

    it('satisfy instanceof across the other builds of this package', async () => {
      const error = await failure(() => gc.verify(`${body} `, headers, SECRET, atReference));
      for (const other of Object.values(entries))
        expect(error).toBeInstanceOf(other.WebhookVerificationError);
      expect(new Error('plain')).not.toBeInstanceOf(gc.WebhookVerificationError);
    });

    it('report a signed body that is not JSON as invalid_payload', async () => {
      const signed = {
        ...headers,
        'x-gc-signature': await gc.sign({
          secret: SECRET,
          payload: 'not json',
          timestamp: reference.timestamp,
        }),
      };
      expect((await failure(() => gc.verify('not json', signed, SECRET, atReference))).code).toBe(
        'invalid_payload',
      );
    });

    it('are TypeErrors for a missing secret (a programming error, not a bad delivery)', async () => {
      await expect(gc.verify(body, headers, [], atReference)).rejects.toBeInstanceOf(TypeError);
      await expect(gc.verify(body, headers, '', atReference)).rejects.toBeInstanceOf(TypeError);
    });
  });

  describe('sign()', () => {
    it('produces one v1= per secret, in order', async () => {
      const header = await gc.sign({ secret: ['whsec_a', 'whsec_b'], payload: body, timestamp: 1 });
      expect(header).toMatch(/^t=1,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(header.split(',')[2]).toBe(
        (await gc.sign({ secret: 'whsec_b', payload: body, timestamp: 1 })).split(',')[1],
      );
    });

    it('defaults the timestamp to now, in seconds', async () => {
      const t = Number((await gc.sign({ secret: SECRET, payload: body })).split(',')[0].slice(2));
      expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);
    });

    it('refuses a timestamp in milliseconds or with a fraction', async () => {
      await expect(gc.sign({ secret: SECRET, payload: body, timestamp: Date.now() })).rejects.toBeInstanceOf(
        TypeError,
      );
      await expect(gc.sign({ secret: SECRET, payload: body, timestamp: 1.5 })).rejects.toBeInstanceOf(
        TypeError,
      );
    });
  });

  it('offers constructEvent as another name for verify', () => {
    expect(gc.constructEvent).toBe(gc.verify);
  });
});
