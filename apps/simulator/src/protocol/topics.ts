/** MQTT topics of docs/contracts.md ("Telemetry"): a datalogger lives under `sw/dl/<PN>/`. */
export const topics = (pn: string) => ({
  data: `sw/dl/${pn}/data`,
  heartbeat: `sw/dl/${pn}/heartbeat`,
  cmd: `sw/dl/${pn}/cmd`,
  ack: `sw/dl/${pn}/ack`,
});

/** HTTP ingest paths (POST, `Authorization: Bearer <device token>`). */
export const ingestPaths = (pn: string) => ({
  data: `/ingest/v1/${encodeURIComponent(pn)}/data`,
  heartbeat: `/ingest/v1/${encodeURIComponent(pn)}/heartbeat`,
});

/** Only loopback targets: the simulator is a local tool, never pointed at someone else's server. */
export function assertLoopback(url: string): void {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    throw new Error(`Not a URL: ${url}`);
  }
  const ok = host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
  if (!ok)
    throw new Error(`Refusing ${url}: the simulator only talks to loopback addresses (127.0.0.0/8, ::1, localhost)`);
}
