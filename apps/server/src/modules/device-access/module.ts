import type { FastifyInstance } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import { registerReadiness } from '../../platform/health.ts';
import { defineModule } from '../../platform/resource.ts';
import type { Services } from '../../platform/services.ts';
import { startEmbedded, startExternal, type Intake } from './broker.ts';
import { DeviceAccess } from './ingest.ts';

/** What runs for one app: the message pipeline and where its messages come from. */
export type DeviceAccessRuntime = { access: DeviceAccess; intake?: Intake };

const runtimes = new WeakMap<Services, DeviceAccessRuntime>();
/** The device access of an app (tests and the bench reach it through its services). */
export const deviceAccessOf = (s: Services) => runtimes.get(s);

/**
 * Device access over MQTT (docs/devices.md "Device access"). When a broker is configured — the embedded one
 * (ATRIUM_MQTT_PORT, default 1884) or an external one (ATRIUM_MQTT_URL) — it starts with the app (before the HTTP
 * port opens) and stops with it: intake closed first, then the accepted messages written. No routes.
 */
export default defineModule((app: FastifyInstance, s: Services) => {
  const access = new DeviceAccess(s, app.log);
  const rt: DeviceAccessRuntime = { access };
  runtimes.set(s, rt);
  deviceMetrics(s, rt);
  const { port, portExplicit, url } = s.config.mqtt;
  if (port === null && !url) return;
  // A server subscribed to an external broker can do its work only while connected (docs/deploy.md "Health and readiness").
  if (url) registerReadiness(s, 'broker', () => rt.intake?.connected() ?? false);

  app.addHook('onReady', async () => {
    if (url)
      rt.intake = startExternal(url, {
        receive: (topic, payload, ack) => access.receive(topic, payload, ack),
        shareGroup: s.config.mqtt.shareGroup === undefined ? 'atrium' : s.config.mqtt.shareGroup,
        log: app.log,
      });
    else if (port !== null) {
      try {
        rt.intake = await startEmbedded(port, s.config.host, {
          receive: (topic, payload, ack) => access.receive(topic, payload, ack),
          authenticate: (tenantId, code, password) => access.authenticate(tenantId, code, password),
          anonymous: s.config.mqtt.anonymous ?? false,
          log: app.log,
        });
        app.log.info({ port: rt.intake.port }, `device access: MQTT broker listening on port ${rt.intake.port}`);
      } catch (err) {
        // A port named in ATRIUM_MQTT_PORT must be ours; the default one may be held by another server of the machine.
        if (portExplicit) throw err;
        app.log.error(
          { err: (err as Error).message, port },
          `device access: MQTT port ${port} is taken; devices cannot report (set ATRIUM_MQTT_PORT or ATRIUM_MQTT_URL)`,
        );
      }
    }
    access.start();
  });
  app.addHook('onClose', async () => {
    await rt.intake
      ?.close()
      .catch((err: unknown) => app.log.error({ err }, 'device access: closing the broker failed'));
    await access.stop();
  });
});

/**
 * Device access's metrics (docs/deploy.md "Metrics"), read from its counters when scraped: messages received, accepted
 * and refused (by reason; `rate()` of them is messages per second), and whether the broker takes messages now.
 */
function deviceMetrics(s: Services, rt: DeviceAccessRuntime) {
  const stats = rt.access.stats;
  const total = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [s.metrics],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  total(
    'atrium_device_messages_received_total',
    'Device status messages received from the broker',
    () => stats.received,
  );
  total('atrium_device_messages_accepted_total', 'Device status messages accepted', () => stats.accepted);
  new Counter({
    name: 'atrium_device_messages_refused_total',
    help: 'Device status messages refused, by reason',
    labelNames: ['reason'] as const,
    registers: [s.metrics],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(stats.refused)) this.inc({ reason }, n ?? 0);
    },
  });
  new Gauge({
    name: 'atrium_mqtt_connected',
    help: 'Whether device messages can arrive: the embedded broker listens, or the external one is connected',
    registers: [s.metrics],
    collect() {
      this.set(rt.intake?.connected() ? 1 : 0);
    },
  });
}
