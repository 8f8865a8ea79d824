/** What coalescing needs of a socket: node's cork/uncork (a net.Socket, a TLS socket). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

const held = new Set<Corkable>();
let flushScheduled = false;

function flushAll(): void {
  flushScheduled = false;
  for (const socket of held) socket.uncork();
  held.clear();
}

/**
 * Holds the socket's writes until the end of this turn of the event loop. A burst of messages
 * delivered in one turn (a thousand questions asked at once, each fanned out to every viewer) then
 * leaves each socket as one write instead of one per message: a write is a syscall on the server and
 * a wake-up on the client, and at N messages × N sockets those dominate. A lone message waits no
 * longer than the turn it was sent in.
 */
export function holdUntilTurnEnds(socket: Corkable): void {
  if (held.has(socket)) return;
  socket.cork();
  held.add(socket);
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushAll);
  }
}
