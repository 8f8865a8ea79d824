import { contract, sdkRoutes } from '@gathercast/contract';
import { createClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { publicDocument } from '../src/docs/reference';
import { buildOpenApiDocument } from '../src/docs/openapi';

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

  it('give every operation that is an SDK method an SDK call in its shape, to a method the SDK has', () => {
    const gc = createClient({ baseUrl: 'https://api.example.com' }) as unknown as Record<string, Record<string, unknown>>;
    // Browser redirects (identity-provider sign-in) are not SDK methods: they have curl only.
    const notInSdk = new Set(
      sdkRoutes(contract)
        .filter((r) => r.excluded)
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    for (const op of operations) {
      const sdk = op.samples.find((s) => s.label === 'SDK');
      if (notInSdk.has(`${op.method} ${op.path}`)) {
        expect(sdk, `${op.method} ${op.path}`).toBeUndefined();
        continue;
      }
      expect(sdk?.source, `${op.method} ${op.path}`).not.toContain('params:');
      const call = /await gc\.(\w+)\.(\w+)\(/.exec(sdk?.source ?? '');
      expect(call, `${op.method} ${op.path}`).not.toBeNull();
      expect(typeof gc[call![1]!]?.[call![2]!], call![0]).toBe('function');
    }
  });
});
