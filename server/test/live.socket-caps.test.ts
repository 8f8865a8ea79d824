import { describe, expect, it } from 'vitest';
import { SocketCaps } from '../src/live/socket-caps';

/** The live gateway's per-participant and per-address socket caps, as a rule (live.limits covers the wiring). */
describe('live socket caps', () => {
  const remote = '203.0.113.7';

  it('refuses a participant’s socket past its cap, and takes nothing for it', () => {
    const caps = new SocketCaps({ perParticipant: 1, perAddress: 10, capLoopback: false });
    expect(caps.take('p', remote)).toBeNull();
    expect(caps.take('p', remote)).toBe('participant_cap');
    caps.give('p', remote);
    expect(caps.take('p', remote)).toBeNull();
  });

  it('refuses a socket past its address’s cap, whoever it is', () => {
    const caps = new SocketCaps({ perParticipant: 10, perAddress: 2, capLoopback: false });
    expect(caps.take('a', remote)).toBeNull();
    expect(caps.take('b', remote)).toBeNull();
    expect(caps.take('c', remote)).toBe('address_cap');
    expect(caps.take('c', '198.51.100.1')).toBeNull();
  });

  it('does not count loopback addresses per address unless told to (a same-host proxy carries the audience)', () => {
    const uncapped = new SocketCaps({ perParticipant: 10, perAddress: 2, capLoopback: false });
    for (const [i, address] of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.1'].entries())
      expect(uncapped.take(`v${i}`, address)).toBeNull();
    const capped = new SocketCaps({ perParticipant: 10, perAddress: 2, capLoopback: true });
    expect(capped.take('a', '127.0.0.1')).toBeNull();
    expect(capped.take('b', '127.0.0.1')).toBeNull();
    expect(capped.take('c', '127.0.0.1')).toBe('address_cap');
  });

  it('keeps the per-participant cap for loopback addresses', () => {
    const caps = new SocketCaps({ perParticipant: 1, perAddress: 2, capLoopback: false });
    expect(caps.take('p', '127.0.0.1')).toBeNull();
    expect(caps.take('p', '127.0.0.1')).toBe('participant_cap');
  });
});
