import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { resolveFfmpeg } from '../../src/modules/video/ffmpeg.ts';

/**
 * A camera made of real parts on loopback, all from npm (docs/devices.md "Live video", "Test camera"): the package
 * rtsp-streaming-server (rtsp-server.mjs, a process of its own: a publisher ANNOUNCEs a stream on the source port,
 * viewers DESCRIBE/PLAY it on the client port) fed by ffmpeg encoding its test pattern to H.264 in real time — the
 * ffmpeg live video runs (ATRIUM_FFMPEG, else PATH, else the npm package's). The server refuses RTSP over TCP, so it
 * also exercises the stream manager's fall-back to UDP.
 *
 * Run on its own: `npx tsx apps/server/test/support/test-camera.ts [clientPort] [sourcePort]` prints the URL.
 */

export type TestCamera = {
  /** The viewers' URL, e.g. rtsp://127.0.0.1:18310/cam */
  url: string;
  /** Starts (again) the publisher; `stopSource` leaves the server up with no stream. */
  startSource(): Promise<void>;
  stopSource(): Promise<void>;
  stop(): Promise<void>;
};

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One RTSP DESCRIBE of `url`: the status code of the answer (0 when the connection fails). */
function describe(url: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let text = '';
    const done = (code: number) => {
      socket.destroy();
      resolve(code);
    };
    socket.setTimeout(2000, () => done(0));
    socket.once('error', () => done(0));
    socket.on('data', (d) => {
      text += d.toString('latin1');
      const m = /^RTSP\/1\.0 (\d{3})/.exec(text);
      if (m) done(Number(m[1]));
    });
    socket.once('connect', () =>
      socket.write(`DESCRIBE ${url} RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n`),
    );
  });
}

/** Waits until the camera's mount answers DESCRIBE with 200 (its publisher is on), at most 30 s. */
async function mounted(url: string, publisher: ChildProcess) {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (publisher.exitCode !== null) throw new Error(`the test camera's publisher exited (${publisher.exitCode})`);
    if ((await describe(url)) === 200) return;
    await wait(100);
  }
  throw new Error(`the test camera ${url} was not published within 30 s`);
}

async function listening(port: number, server: ChildProcess, deadlineMs = 10_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the test camera's RTSP server ended (${server.exitCode})`);
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.destroy();
        resolve(true);
      });
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await wait(100);
  }
}

function end(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => proc.kill('SIGKILL'), 2000);
    proc.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

/** The clock row's geometry: `CLOCK_BITS` blocks of `CLOCK_BLOCK` px square at the frame's top left, bit 0 first. */
export const CLOCK_BITS = 16;
export const CLOCK_BLOCK = 16;

/**
 * ffmpeg filters writing the wall clock's milliseconds (mod 2^16) into each frame as a row of black/white blocks, bit 0
 * leftmost: each block's `enable` expression reads `time(0)` (ffmpeg's wall clock, seconds) as the frame passes the
 * filter — before encoding, so a reader of the picture measures encode, RTSP, server and player (glass to glass).
 */
export function clockFilter(): string {
  const boxes = [`drawbox=x=0:y=0:w=${CLOCK_BITS * CLOCK_BLOCK}:h=${CLOCK_BLOCK}:color=black:t=fill`];
  for (let k = 0; k < CLOCK_BITS; k++)
    boxes.push(
      `drawbox=x=${k * CLOCK_BLOCK}:y=0:w=${CLOCK_BLOCK}:h=${CLOCK_BLOCK}:color=white:t=fill:` +
        `enable='mod(floor(time(0)*1000/${2 ** k}),2)'`,
    );
  return boxes.join(',');
}

export async function startTestCamera(
  opts: {
    clientPort: number;
    sourcePort: number;
    rtpStartPort?: number;
    name?: string;
    size?: string;
    /** Draw the wall clock into each frame (`clockFilter`): the latency bench reads it back in the browser. */
    clock?: boolean;
  } = {
    clientPort: 18310,
    sourcePort: 18311,
  },
): Promise<TestCamera> {
  const name = opts.name ?? 'cam';
  // Each camera hands out RTP ports from a range of its own, so two test cameras never share a port.
  const rtp = opts.rtpStartPort ?? 20000 + (opts.clientPort % 100) * 400;
  const ffmpeg = resolveFfmpeg(process.env.ATRIUM_FFMPEG).path;
  const server = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./rtsp-server.mjs', import.meta.url)),
      String(opts.clientPort),
      String(opts.sourcePort),
      String(rtp),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await listening(opts.sourcePort, server);
  await listening(opts.clientPort, server);
  let publisher: ChildProcess | undefined;
  const url = `rtsp://127.0.0.1:${opts.clientPort}/${name}`;
  const cam: TestCamera = {
    url,
    async startSource() {
      await end(publisher);
      publisher = spawn(
        ffmpeg,
        [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-re',
          '-f',
          'lavfi',
          '-i',
          `testsrc=size=${opts.size ?? '320x240'}:rate=25`,
          ...(opts.clock ? ['-vf', clockFilter()] : []),
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-tune',
          'zerolatency',
          '-pix_fmt',
          'yuv420p',
          '-g',
          '25',
          '-f',
          'rtsp',
          `rtsp://127.0.0.1:${opts.sourcePort}/${name}`,
        ],
        { stdio: 'ignore' },
      );
      // The mount exists once the publisher has ANNOUNCEd: asked with DESCRIBE until it is (a fixed pause was too
      // short on a loaded machine, and the first play of a file read 404 from the camera).
      await mounted(url, publisher);
    },
    async stopSource() {
      await end(publisher);
      publisher = undefined;
    },
    async stop() {
      await end(publisher);
      await end(server);
    },
  };
  await cam.startSource();
  return cam;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const clientPort = Number(process.argv[2] ?? 18310);
  const sourcePort = Number(process.argv[3] ?? clientPort + 1);
  const cam = await startTestCamera({ clientPort, sourcePort });
  console.log(cam.url);
  const bye = () => void cam.stop().then(() => process.exit(0));
  process.once('SIGTERM', bye);
  process.once('SIGINT', bye);
}
