import net from 'node:net';

/**
 * A TCP relay between a server under test and PostgreSQL, to stage what a network or a database host does to the
 * server's connections without touching the shared cluster: `down()` cuts every connection and refuses new ones (a
 * restart as the client sees it), `blackhole()` cuts them and then accepts connections that never answer (a host that
 * vanished), `up()` relays again.
 */
export type DbProxy = {
  port: number;
  /** `url` with its host and port replaced by the relay's. */
  via(url: string): string;
  down(): Promise<void>;
  blackhole(): void;
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startDbProxy(target: { host: string; port: number }): Promise<DbProxy> {
  const sockets = new Set<net.Socket>();
  let mode: 'relay' | 'blackhole' = 'relay';
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => {});
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'blackhole') return; // accepted, never answered
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.removeListener('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  const cut = () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  let listening = true;
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async down() {
      mode = 'relay';
      if (listening) {
        listening = false;
        await new Promise<void>((r) => {
          server.close(() => r());
          cut();
        });
      }
      cut();
    },
    blackhole() {
      mode = 'blackhole';
      cut();
    },
    async up() {
      mode = 'relay';
      if (!listening) {
        await listen(port);
        listening = true;
      }
    },
    async close() {
      cut();
      if (listening) await new Promise<void>((r) => server.close(() => r()));
      listening = false;
    },
  };
}
