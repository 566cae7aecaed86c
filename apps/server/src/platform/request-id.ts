import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What a request id from the proxy may look like: 8 to 128 letters, digits and `_ . : -` (nginx's `$request_id` is 32
 * hex digits; a UUID, a trace id pass). Anything else — too long, control characters, spaces, two headers joined —
 * is replaced by a new id, so a log line can never be split or padded by a client's header.
 */
const REQUEST_ID = /^[\w.:-]{8,128}$/;

/**
 * The id of a request (docs/deploy.md "Request ids"): the `X-Request-Id` the proxy sent when it looks like one, else
 * a new UUID. Fastify's own `requestIdHeader` takes the header as it is, so the header is read here instead. The id is
 * in every log line of the request (`reqId`) and answered in `X-Request-Id` (platform/http.ts).
 */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
