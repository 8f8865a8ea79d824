/*
 * The live gateway's vocabulary besides its messages: the `code` of an `error` message and the close
 * codes of the socket, each with what it means. The server sends them, the SDK branches on them and
 * the live gateway guide lists them; all three read them here.
 */

/** Every `code` of a live `error` message (the connection stays open, unless a close follows). */
export const liveErrorMeanings = {
  bad_request:
    'Not JSON (a binary frame included), not an object, an unknown `type`, a field missing or out of range, a string holding NUL or a lone surrogate, nesting deeper than 32 levels.',
  forbidden:
    'The role may not send this, anonymous Q&A is not allowed, the sender waits in the lobby or is muted, or the chat mode does not let their role chat.',
  feature_disabled: 'The governing phase does not list the feature.',
  not_found: 'A question, poll, lobby waiter, participant or table that does not exist in this event.',
  already_voted: 'A second vote by the same participant on a question or poll.',
  invalid_state:
    'Voting on a closed poll or a non-open question, `table.observe` outside breakout or rotation, or the event ended.',
  rate_limited: 'Over the message rate of the socket, or a chat line inside the slow-mode gap.',
  resume_failed:
    'A resume that cannot be honoured: the socket starts afresh (a new welcome and the snapshot follow).',
  too_many_connections: 'Too many open sockets for this participant or client address; close 4029 follows.',
  // Not `internal_error` as over HTTP: the live name was documented first, and clients match it.
  internal: 'An unexpected failure (logged); try again.',
} as const;

export type LiveErrorCode = keyof typeof liveErrorMeanings;

export const liveErrorCodes = Object.keys(liveErrorMeanings) as LiveErrorCode[];

export const isLiveErrorCode = (code: string): code is LiveErrorCode =>
  Object.hasOwn(liveErrorMeanings, code);

interface CloseCode {
  code: number;
  meaning: string;
  /** Reconnecting cannot help: the connection is over for good. */
  final: boolean;
  /** Met while reconnecting, it is the gateway's answer, which ends the reconnecting. */
  endsReconnect: boolean;
}

/** The socket's close codes, by name. */
export const liveCloseCodeTable = {
  normal: { code: 1000, meaning: 'Normal close (the client).', final: true, endsReconnect: false },
  goingAway: {
    code: 1001,
    meaning: 'A proxy in between is going away; reconnect.',
    final: false,
    endsReconnect: false,
  },
  lost: {
    code: 1006,
    meaning:
      'No close frame arrived (network loss, a killed process, a socket the server found unresponsive); reconnect and resume.',
    final: false,
    endsReconnect: false,
  },
  policyViolation: {
    code: 1008,
    meaning:
      'Over a documented limit of the protocol (too many WebSocket pings); the SDK also reports an `error` before `welcome` with it.',
    final: false,
    endsReconnect: true,
  },
  tooBig: { code: 1009, meaning: 'A client frame over 16 KiB.', final: false, endsReconnect: false },
  setupFailed: {
    code: 1011,
    meaning: 'The socket could not be set up (a bug or the database unreachable); reconnect.',
    final: false,
    endsReconnect: false,
  },
  serviceRestart: {
    code: 1012,
    meaning:
      'The server process is draining (a planned restart); reconnect and resume: another process takes the socket, presence is kept.',
    final: false,
    endsReconnect: false,
  },
  eventEnded: {
    code: 4000,
    meaning: 'The event ended (after `event.ended`), or was deleted.',
    final: true,
    endsReconnect: true,
  },
  lobbyDenied: {
    code: 4003,
    meaning: 'A host turned the participant away from the meeting lobby (after `lobby.denied`).',
    final: true,
    endsReconnect: true,
  },
  eventNotLive: {
    code: 4009,
    meaning: 'The event had already ended at connect (after `error` `invalid_state`).',
    final: true,
    endsReconnect: true,
  },
  roleChanged: {
    code: 4010,
    meaning: 'The holder’s event role changed: reconnect with a new gateway token.',
    final: false,
    endsReconnect: false,
  },
  banned: {
    code: 4011,
    meaning: 'Banned for the rest of the event (after `removed` with `banned: true`).',
    final: true,
    endsReconnect: true,
  },
  removed: {
    code: 4012,
    meaning:
      'A host or the API removed the participant (after `removed`): a token issued after the removal is needed.',
    final: true,
    endsReconnect: true,
  },
  tooManySockets: {
    code: 4029,
    meaning:
      'Too many open sockets for this participant or client address (after `error` `too_many_connections`).',
    final: true,
    endsReconnect: true,
  },
} as const satisfies Record<string, CloseCode>;

export type LiveCloseName = keyof typeof liveCloseCodeTable;

/** The close codes by name: `liveCloseCodes.eventEnded` is 4000. */
export const liveCloseCodes = Object.fromEntries(
  Object.entries(liveCloseCodeTable).map(([name, { code }]) => [name, code]),
) as { [N in LiveCloseName]: (typeof liveCloseCodeTable)[N]['code'] };
