import { createClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { publicDocument } from '../src/http/docs-reference';
import { buildOpenApiDocument } from '../src/http/openapi';

// The reference's code samples: every public operation has a curl command for this server and an SDK
// call, and each SDK call names a method the SDK really has.

type Sample = { lang: string; label: string; source: string };
const doc = publicDocument(buildOpenApiDocument(), 'https://api.example.com') as {
  paths: Record<string, Record<string, { operationId?: string; 'x-codeSamples'?: Sample[] }>>;
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([, op]) => op && typeof op === 'object' && op.operationId)
    .map(([method, op]) => ({ path, method, samples: op['x-codeSamples'] ?? [] })),
);

describe('reference code samples', () => {
  it('give every operation a curl command addressed to the server', () => {
    for (const op of operations) {
      const curl = op.samples.find((s) => s.label === 'curl');
      expect(curl?.source, `${op.method} ${op.path}`).toContain(`'https://api.example.com${op.path}'`);
      if (op.method !== 'get') expect(curl?.source).toContain(`-X ${op.method.toUpperCase()}`);
    }
  });

  it('give every operation an SDK call to a method the SDK has', () => {
    const gc = createClient({ baseUrl: 'https://api.example.com' }) as unknown as Record<string, Record<string, unknown>>;
    for (const op of operations) {
      const sdk = op.samples.find((s) => s.label === 'SDK');
      const call = /await gc\.(\w+)\.(\w+)\(/.exec(sdk?.source ?? '');
      expect(call, `${op.method} ${op.path}`).not.toBeNull();
      expect(typeof gc[call![1]!]?.[call![2]!], call![0]).toBe('function');
    }
  });
});
