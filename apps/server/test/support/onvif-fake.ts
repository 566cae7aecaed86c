import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake ONVIF PTZ camera on loopback (docs/devices.md "Live video"): a small HTTP server answering the SOAP calls the
 * `onvif` library makes to connect (GetSystemDateAndTime, GetServices, GetProfiles, GetVideoSources) and the PTZ
 * calls (ContinuousMove, Stop), recording every PTZ call it receives with the raw SOAP. Credentials are checked
 * when given: a call without the WS-Security user name (or with another one) gets a SOAP fault.
 *
 * Run on its own: `npx tsx apps/server/test/support/onvif-fake.ts [port]`; it prints its device service URL and
 * one line per PTZ call.
 */

export type PtzCall = { action: 'ContinuousMove' | 'Stop'; x?: number; y?: number; zoom?: number; soap: string };

export type OnvifFake = {
  url: string;
  port: number;
  calls: PtzCall[];
  /** Every SOAP action received, in order (connect included). */
  actions: string[];
  close(): Promise<void>;
};

const ENV = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" ` +
  `xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" ` +
  `xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:tt="http://www.onvif.org/ver10/schema">` +
  `<s:Body>${body}</s:Body></s:Envelope>`;

const fault = (reason: string) =>
  ENV(
    `<s:Fault><s:Code><s:Value>s:Sender</s:Value></s:Code><s:Reason><s:Text xml:lang="en">${reason}</s:Text></s:Reason></s:Fault>`,
  );

function answer(action: string, base: string): string | null {
  const now = new Date();
  switch (action) {
    case 'GetSystemDateAndTime':
      return ENV(
        `<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType>` +
          `<tt:DaylightSavings>false</tt:DaylightSavings><tt:UTCDateTime><tt:Time><tt:Hour>${now.getUTCHours()}</tt:Hour>` +
          `<tt:Minute>${now.getUTCMinutes()}</tt:Minute><tt:Second>${now.getUTCSeconds()}</tt:Second></tt:Time>` +
          `<tt:Date><tt:Year>${now.getUTCFullYear()}</tt:Year><tt:Month>${now.getUTCMonth() + 1}</tt:Month>` +
          `<tt:Day>${now.getUTCDate()}</tt:Day></tt:Date></tt:UTCDateTime></tds:SystemDateAndTime>` +
          `</tds:GetSystemDateAndTimeResponse>`,
      );
    case 'GetServices': {
      const svc = (ns: string, p: string) =>
        `<tds:Service><tds:Namespace>${ns}</tds:Namespace><tds:XAddr>${base}${p}</tds:XAddr>` +
        `<tds:Version><tt:Major>2</tt:Major><tt:Minor>60</tt:Minor></tds:Version></tds:Service>`;
      return ENV(
        `<tds:GetServicesResponse>` +
          svc('http://www.onvif.org/ver10/device/wsdl', '/onvif/device_service') +
          svc('http://www.onvif.org/ver10/media/wsdl', '/onvif/media_service') +
          svc('http://www.onvif.org/ver20/ptz/wsdl', '/onvif/ptz_service') +
          `</tds:GetServicesResponse>`,
      );
    }
    case 'GetCapabilities':
      return ENV(
        `<tds:GetCapabilitiesResponse><tds:Capabilities>` +
          `<tt:Device><tt:XAddr>${base}/onvif/device_service</tt:XAddr></tt:Device>` +
          `<tt:Media><tt:XAddr>${base}/onvif/media_service</tt:XAddr></tt:Media>` +
          `<tt:PTZ><tt:XAddr>${base}/onvif/ptz_service</tt:XAddr></tt:PTZ>` +
          `</tds:Capabilities></tds:GetCapabilitiesResponse>`,
      );
    case 'GetVideoSources':
      return ENV(
        `<trt:GetVideoSourcesResponse><trt:VideoSources token="VideoSource_1"><tt:Framerate>25</tt:Framerate>` +
          `<tt:Resolution><tt:Width>320</tt:Width><tt:Height>240</tt:Height></tt:Resolution></trt:VideoSources>` +
          `</trt:GetVideoSourcesResponse>`,
      );
    case 'GetProfiles':
      return ENV(
        `<trt:GetProfilesResponse><trt:Profiles token="Profile_1" fixed="true"><tt:Name>main</tt:Name>` +
          `<tt:VideoSourceConfiguration token="VSC_1"><tt:Name>VSC_1</tt:Name><tt:UseCount>1</tt:UseCount>` +
          `<tt:SourceToken>VideoSource_1</tt:SourceToken><tt:Bounds x="0" y="0" width="320" height="240"/>` +
          `</tt:VideoSourceConfiguration>` +
          `<tt:VideoEncoderConfiguration token="VEC_1"><tt:Name>VEC_1</tt:Name><tt:UseCount>1</tt:UseCount>` +
          `<tt:Encoding>H264</tt:Encoding><tt:Resolution><tt:Width>320</tt:Width><tt:Height>240</tt:Height></tt:Resolution>` +
          `<tt:Quality>5</tt:Quality><tt:RateControl><tt:FrameRateLimit>25</tt:FrameRateLimit>` +
          `<tt:EncodingInterval>1</tt:EncodingInterval><tt:BitrateLimit>512</tt:BitrateLimit></tt:RateControl>` +
          `</tt:VideoEncoderConfiguration>` +
          `<tt:PTZConfiguration token="PTZ_1"><tt:Name>PTZ_1</tt:Name><tt:UseCount>1</tt:UseCount>` +
          `<tt:NodeToken>PTZNode_1</tt:NodeToken></tt:PTZConfiguration>` +
          `</trt:Profiles></trt:GetProfilesResponse>`,
      );
    case 'ContinuousMove':
      return ENV(`<tptz:ContinuousMoveResponse/>`);
    case 'Stop':
      return ENV(`<tptz:StopResponse/>`);
    default:
      return null;
  }
}

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));

export async function startOnvifFake(opts: { port?: number; user?: string; log?: boolean } = {}): Promise<OnvifFake> {
  const calls: PtzCall[] = [];
  const actions: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    let soap = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (soap += c));
    req.on('end', () => {
      const action = /<(?:\w+:)?Body[^>]*>\s*<(?:\w+:)?(\w+)/.exec(soap)?.[1] ?? '';
      actions.push(action);
      const send = (status: number, xml: string) => {
        res.writeHead(status, { 'content-type': 'application/soap+xml; charset=utf-8' });
        res.end(xml);
      };
      // The time is asked before any credential is known; everything else needs the user name (WS-Security).
      if (opts.user && action !== 'GetSystemDateAndTime') {
        const user = /<(?:\w+:)?Username>([^<]*)</.exec(soap)?.[1];
        if (user !== opts.user) return send(400, fault('Sender not authorized'));
      }
      if (action === 'ContinuousMove' || action === 'Stop') {
        const pt = /<(?:\w+:)?PanTilt\s+x="([^"]+)"\s+y="([^"]+)"/.exec(soap);
        const zoom = /<(?:\w+:)?Zoom\s+x="([^"]+)"/.exec(soap);
        const call: PtzCall = { action, soap };
        if (action === 'ContinuousMove')
          Object.assign(call, { x: num(pt?.[1]), y: num(pt?.[2]), zoom: num(zoom?.[1]) });
        calls.push(call);
        if (opts.log) console.log(JSON.stringify({ action, x: call.x, y: call.y, zoom: call.zoom }));
      }
      const xml = answer(action, base);
      if (!xml) return send(400, fault(`Action ${action || '(none)'} not implemented`));
      send(200, xml);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/onvif/device_service`,
    port,
    calls,
    actions,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const fake = await startOnvifFake({ port: Number(process.argv[2] ?? 0), log: true });
  console.log(fake.url);
}
