import type { FastifyReply, FastifyRequest } from 'fastify';
import WebSocket from 'ws';
import { AppError } from '../../platform/errors.ts';
import { videoTexts } from './messages.ts';
import { VIA_HEADER } from './service.ts';

/**
 * Passing a viewer's request on to the server that runs the stream (docs/cluster.md "Live video across servers"). The
 * address is the owner's own row in `video_server` — written by the servers, never taken from a request — and the
 * request goes as it came (the same Blade-Auth or signed token), marked with `x-atrium-via` so the owner answers it
 * itself and never passes it on again.
 */

/**
 * An HTTP call (play, touch, playlist, segment) answered by the owner at `base`, streamed back as it comes. An owner
 * that does not answer (it died, its lease has not run out yet) is a 503: the viewer's next touch, once the lease
 * ran out, starts the stream again.
 */
export function forwardHttp(req: FastifyRequest, reply: FastifyReply, base: string, self: Forwarder) {
  return reply.from(`${base}${req.url}`, {
    rewriteRequestHeaders: (_req, headers) => ({ ...headers, [VIA_HEADER]: self.id }),
    onError: (rep, { error }) => {
      rep.log.warn({ owner: base, err: error.message }, 'video: the owner of a stream did not answer');
      if (refusedConnection(error)) ownerGone(self, base, rep.log);
      rep.send(new AppError(503, videoTexts.streamRestarting));
    },
  });
}

/** This server as the passing side: its id (the via mark) and what it does when an owner refused the connection. */
export type Forwarder = { id: string; refused: (url: string) => Promise<void> };

const refusedConnection = (err: unknown) =>
  (err as { code?: unknown })?.code === 'ECONNREFUSED' ||
  (err as { cause?: { code?: unknown } })?.cause?.code === 'ECONNREFUSED' ||
  /ECONNREFUSED/.test(String((err as { message?: unknown })?.message ?? ''));

/** Nothing listens at the owner's address: its lease ends now, so the viewer's next touch starts the stream here. */
function ownerGone(self: Forwarder, base: string, log: { warn: (o: object, m: string) => void }) {
  self.refused(base).catch((err: unknown) => log.warn({ err }, 'video: ending a dead owner’s lease failed'));
}

/** The viewer's socket holds this much unsent: the owner's socket is no longer read until it drains (live.ts slows). */
const PAUSE_BYTES = 1024 * 1024;

/**
 * The low-latency socket passed through: the owner's messages to the viewer as they come, its close code to the
 * viewer (4000 reconnect when the owner's socket broke: its server died, the next touch starts the stream again
 * elsewhere; 4004 when the owner has no such stream). A viewer that does not drain stops the reading of the owner's
 * socket, so the owner's own slow-viewer rules (skip ahead, cut at 8 MB) apply to it.
 */
export function pipeLive(viewer: WebSocket, target: string, base: string, self: Forwarder) {
  const owner = new WebSocket(target, { headers: { [VIA_HEADER]: self.id }, perMessageDeflate: false });
  let done = false;
  let drain: NodeJS.Timeout | undefined;
  const end = (code: number) => {
    if (done) return;
    done = true;
    clearInterval(drain);
    if (viewer.readyState === WebSocket.OPEN) viewer.close(code);
    owner.terminate();
  };
  owner.on('message', (data, isBinary) => {
    if (viewer.readyState !== WebSocket.OPEN) return;
    viewer.send(data, { binary: isBinary });
    if (viewer.bufferedAmount > PAUSE_BYTES && !drain) {
      owner.pause();
      drain = setInterval(() => {
        if (viewer.bufferedAmount > PAUSE_BYTES) return;
        clearInterval(drain);
        drain = undefined;
        owner.resume();
      }, 50);
    }
  });
  owner.on('unexpected-response', (request, res) => {
    request.destroy();
    end(res.statusCode === 404 ? 4004 : 4000);
  });
  owner.on('error', (err) => {
    if (refusedConnection(err)) self.refused(base).catch(() => {});
    end(4000);
  });
  owner.on('close', (code) => end(code >= 4000 && code < 5000 ? code : 4000));
  viewer.on('close', () => end(1000));
  // The viewer sends nothing: anything it sends is ignored.
}
