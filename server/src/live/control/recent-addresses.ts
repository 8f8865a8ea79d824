/** Past this many participants, the one seen longest ago is forgotten (bounded memory). */
const maxRemembered = 100_000;

/**
 * The client address each participant last connected from on this process, kept after their sockets
 * closed: a ban with `clientAddress` of a participant who is no longer connected still covers the
 * address they came from. Each process answers from its own memory (a restarted one has forgotten).
 */
export class RecentAddresses {
  readonly #byParticipant = new Map<string, string>();

  remember(eventId: string, participantId: string, address: string): void {
    const key = `${eventId}/${participantId}`;
    this.#byParticipant.delete(key);
    this.#byParticipant.set(key, address);
    if (this.#byParticipant.size > maxRemembered)
      this.#byParticipant.delete(this.#byParticipant.keys().next().value!);
  }

  of(eventId: string, participantId: string): string | undefined {
    return this.#byParticipant.get(`${eventId}/${participantId}`);
  }
}
