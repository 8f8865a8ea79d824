import { describe, expect, it } from 'vitest';
import { buildVectors } from '../scripts/generate-test-vectors.mjs';
import { clockAt, entries, failure, nodeEntries, vectors } from './helpers';

describe('test-vectors.json', () => {
  it('is exactly what scripts/generate-test-vectors.mjs produces', () => {
    expect(vectors).toEqual(buildVectors());
  });

  it('carries the documented reference header', () => {
    expect(vectors.valid[0].headers['x-gc-signature']).toBe(
      't=1700000000,v1=ef8d664dff02332ebb46900809028dcfac3024b86d406b66e6d1a011c91da3f5',
    );
  });
});

describe.each(Object.entries(entries))('%s', (_, entry) => {
  it.each(vectors.valid.map((v) => [v.name, v] as const))('accepts valid vector: %s', async (_name, v) => {
    const event = await entry.verify(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) });
    expect(event).toEqual(JSON.parse(v.body));
  });

  it.each(vectors.invalid.map((v) => [v.name, v] as const))(
    'rejects invalid vector: %s',
    async (_name, v) => {
      const error = await failure(() =>
        entry.verify(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) }),
      );
      expect(error).toBeInstanceOf(entry.WebhookVerificationError);
      expect(error.code).toBe(v.expectedCode);
    },
  );

  it.each(vectors.valid.map((v) => [v.name, v] as const))(
    'sign() reproduces the header of: %s',
    async (_name, v) => {
      const header = await entry.sign({ secret: v.signerSecrets, payload: v.body, timestamp: v.timestamp });
      expect(header).toBe(v.headers['x-gc-signature']);
    },
  );
});

describe.each(Object.entries(nodeEntries))('%s, synchronous API', (_, entry) => {
  it.each(vectors.valid.map((v) => [v.name, v] as const))('verifySync accepts: %s', (_name, v) => {
    expect(entry.verifySync(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) })).toEqual(
      JSON.parse(v.body),
    );
  });

  it.each(vectors.invalid.map((v) => [v.name, v] as const))('verifySync rejects: %s', (_name, v) => {
    expect(() => entry.verifySync(v.body, v.headers, v.verifierSecrets, { now: clockAt(v.now) })).toThrow(
      expect.objectContaining({ code: v.expectedCode }),
    );
  });

  it('signSync reproduces every valid header', () => {
    for (const v of vectors.valid) {
      expect(entry.signSync({ secret: v.signerSecrets, payload: v.body, timestamp: v.timestamp })).toBe(
        v.headers['x-gc-signature'],
      );
    }
  });
});
