import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRetryScheduleMs, nextRetryDelayMs } from '../src/webhooks/retry-schedule';
import { signatureHeader } from '../src/webhooks/signer';

interface Vector {
  name: string;
  signerSecrets: string[];
  timestamp: number;
  body: string;
  headers: Record<string, string>;
}

const vectorsFile = path.resolve(__dirname, '../../webhook-verifier/test-vectors.json');

describe('signer', () => {
  it('produces the documented reference header', () => {
    const body = '{"id":"0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10","type":"event.published"}';
    const expected = createHmac('sha256', 'whsec_test_0123456789abcdef').update(`1700000000.${body}`).digest('hex');
    expect(signatureHeader(['whsec_test_0123456789abcdef'], 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
    expect(expected).toBe('ef8d664dff02332ebb46900809028dcfac3024b86d406b66e6d1a011c91da3f5');
  });

  it('puts one v1= per secret, newest first, during a rotation', () => {
    const h = signatureHeader(['whsec_new', 'whsec_old'], 1700000000, '{}');
    const [t, a, b] = h.split(',');
    expect(t).toBe('t=1700000000');
    expect(a).toBe(`v1=${createHmac('sha256', 'whsec_new').update('1700000000.{}').digest('hex')}`);
    expect(b).toBe(`v1=${createHmac('sha256', 'whsec_old').update('1700000000.{}').digest('hex')}`);
  });

  it.runIf(existsSync(vectorsFile))('matches every valid vector of webhook-verifier/test-vectors.json', () => {
    const vectors = JSON.parse(readFileSync(vectorsFile, 'utf8')) as { valid: Vector[] };
    expect(vectors.valid.length).toBeGreaterThan(0);
    for (const v of vectors.valid) {
      expect(signatureHeader(v.signerSecrets, v.timestamp, v.body), v.name).toBe(v.headers['x-gc-signature']);
    }
  });
});

describe('retry schedule', () => {
  it('is the documented schedule: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h, then failed', () => {
    const mid = () => 0.5;
    const delays = Array.from({ length: 11 }, (_, i) => nextRetryDelayMs(i + 1, defaultRetryScheduleMs, mid));
    expect(delays).toEqual([5e3, 30e3, 120e3, 600e3, 1800e3, 3600e3, 7200e3, 14400e3, 28800e3, 43200e3, null]);
  });

  it('jitters each delay by at most ±10 %', () => {
    expect(nextRetryDelayMs(1, defaultRetryScheduleMs, () => 0)).toBe(4500);
    expect(nextRetryDelayMs(1, defaultRetryScheduleMs, () => 0.999999)).toBe(5500);
    for (let i = 0; i < 200; i++) {
      const d = nextRetryDelayMs(3, defaultRetryScheduleMs)!;
      expect(d).toBeGreaterThanOrEqual(108_000);
      expect(d).toBeLessThanOrEqual(132_000);
    }
  });
});
