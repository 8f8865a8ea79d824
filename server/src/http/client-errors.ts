import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@gathercast/contract';
import type { Logger } from 'pino';
import { problemBody } from '../lib/problem';
import { errorStatus } from '@gathercast/contract';
import { countConnectionRefusal } from '../lib/metrics';

const reasons: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
};

/** What Node's HTTP parser refused, as a code of the API (the same statuses Node itself would send). */
function codeOf(err: NodeJS.ErrnoException): { code: ErrorCode; detail: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', detail: 'The request line and headers together exceed 16 KiB' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', detail: 'The request was not received in time' };
    default:
      return { code: 'bad_request', detail: 'The request could not be parsed as HTTP (for example an invalid character in a header)' };
  }
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (headers over 16 KiB, invalid header
 * characters, malformed request lines, timeouts) are answered with a minimal application/problem+json
 * response instead of Node's bare status line, then the connection is closed.
 */
export function answerClientErrors(server: Server, errorsBase: string, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { code, detail } = codeOf(err);
    if (code === 'request_timeout') countConnectionRefusal('request_timeout');
    const status = errorStatus[code];
    logger.debug({ code: err.code, status }, 'request refused by the HTTP parser');
    socket.end(rawProblem(status, problemBody(errorsBase, code, detail)));
  });
}

/** A whole HTTP/1.1 answer carrying a problem body, for sockets no route will see; the connection closes. */
export function rawProblem(status: number, body: string, headers: string[] = []): string {
  return (
    `HTTP/1.1 ${status} ${reasons[status] ?? 'Bad Request'}\r\n` +
    'Content-Type: application/problem+json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    headers.map((h) => `${h}\r\n`).join('') +
    'Connection: close\r\n\r\n' +
    body
  );
}
