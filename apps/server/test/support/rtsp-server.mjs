// The test camera's RTSP server (test-camera.ts; docs/devices.md "Test camera"): the npm package
// rtsp-streaming-server in a process of its own, so stopping it frees every port at once.
// Arguments: <client port> <source port> <first RTP port>. Both RTSP ports listen on 127.0.0.1 only.
import rtspStreamingServer from 'rtsp-streaming-server';

const [clientPort, sourcePort, rtpPortStart] = process.argv.slice(2).map(Number);
const server = new rtspStreamingServer.RtspServer({
  clientPort,
  serverPort: sourcePort,
  rtpPortStart,
  rtpPortCount: 400,
});

// A publisher that goes away without its TEARDOWN (killed) would leave its mount behind, and the next ANNOUNCE of the
// same path would be refused: its mount is removed when its connection closes.
server.PublishServer.server.on('request', (req) => {
  if (req.method !== 'RECORD') return;
  const session = req.headers.session;
  req.socket.once('close', () => {
    const mount = server.Mounts.getMount(req.uri);
    if (mount && mount.id === session) server.Mounts.deleteMount(req.uri);
  });
});

// A camera whose source stops hangs up on its viewers (their RTSP connection closes), as a camera that goes off does;
// otherwise a viewer over UDP would notice only by ffmpeg's UDP read timeout (10–20 s; docs/devices.md "Which ffmpeg").
const viewers = new Map();
server.ClientServer.server.on('request', (req) => {
  if (req.method !== 'DESCRIBE') return;
  const mount = new URL(req.uri).pathname;
  if (!viewers.has(mount)) viewers.set(mount, new Set());
  viewers.get(mount).add(req.socket);
  req.socket.once('close', () => viewers.get(mount)?.delete(req.socket));
});
const deleteMount = server.Mounts.deleteMount.bind(server.Mounts);
server.Mounts.deleteMount = (uri) => {
  const deleted = deleteMount(uri);
  for (const socket of viewers.get(new URL(uri).pathname) ?? []) socket.destroy();
  return deleted;
};

const listen = (s, port) =>
  new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', resolve);
  });
await listen(server.PublishServer.server, sourcePort);
await listen(server.ClientServer.server, clientPort);
process.stdout.write('ready\n');
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
// A request the package cannot handle rejects inside it: reported, the server keeps serving the others.
process.on('unhandledRejection', (err) => process.stderr.write(`test camera RTSP server: ${err}\n`));
