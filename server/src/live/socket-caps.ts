import { isLoopback } from '../http/client-address';

/**
 * Open sockets per participant (in an event) and per client address, on this process
 * (LIVE_MAX_SOCKETS_PER_PARTICIPANT, LIVE_MAX_SOCKETS_PER_ADDRESS; 0 turns a cap off). An anonymous
 * gateway token names one participant, so the first cap is also the cap per token. A socket over a
 * cap is refused after the handshake, with close code 4029 (docs/live-gateway.md), so a browser
 * sees why; the count is in /metrics (gathercast_live_refusals_total). A loopback address is not
 * counted per address unless `capLoopback` (the rule of the HTTP port's cap: http/connection-limits.ts).
 */
export interface SocketCapLimits {
  perParticipant: number;
  perAddress: number;
  capLoopback: boolean;
}

export type CapRefusal = 'participant_cap' | 'address_cap';

export class SocketCaps {
  readonly #byParticipant = new Map<string, number>();
  readonly #byAddress = new Map<string, number>();

  constructor(private readonly limits: SocketCapLimits) {}

  /** Takes a slot for a new socket, or names the cap it is over (and takes nothing). */
  take(participant: string, address: string): CapRefusal | null {
    const { perParticipant, perAddress } = this.limits;
    const counted = this.#countsAddress(address);
    if (perParticipant && (this.#byParticipant.get(participant) ?? 0) >= perParticipant)
      return 'participant_cap';
    if (counted && perAddress && (this.#byAddress.get(address) ?? 0) >= perAddress) return 'address_cap';
    add(this.#byParticipant, participant, 1);
    if (counted) add(this.#byAddress, address, 1);
    return null;
  }

  /** Gives back the slot of a socket that closed (or was never opened). */
  give(participant: string, address: string): void {
    add(this.#byParticipant, participant, -1);
    if (this.#countsAddress(address)) add(this.#byAddress, address, -1);
  }

  #countsAddress(address: string): boolean {
    return this.limits.capLoopback || !isLoopback(address);
  }
}

function add(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
