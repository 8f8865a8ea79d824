import { describe, expect, it } from 'vitest';
import { atReference, entries, failure, reference, SECRET } from './helpers';

const url = 'https://receiver.test/api/webhooks';

describe.each(Object.entries(entries))('verifyRequest, %s', (_, gc) => {
  it('reads the raw body of a Fetch API Request and returns the event', async () => {
    const request = new Request(url, { method: 'POST', body: reference.body, headers: reference.headers });
    await expect(gc.verifyRequest(request, SECRET, atReference)).resolves.toEqual(JSON.parse(reference.body));
  });

  it('rejects a Request whose body was altered', async () => {
    const request = new Request(url, {
      method: 'POST',
      body: `${reference.body} `,
      headers: reference.headers,
    });
    expect((await failure(() => gc.verifyRequest(request, SECRET, atReference))).code).toBe(
      'signature_mismatch',
    );
  });

  it('rejects a Request without the signature header', async () => {
    const { 'x-gc-signature': _, ...rest } = reference.headers;
    const request = new Request(url, { method: 'POST', body: reference.body, headers: rest });
    expect((await failure(() => gc.verifyRequest(request, SECRET, atReference))).code).toBe('missing_header');
  });
});
