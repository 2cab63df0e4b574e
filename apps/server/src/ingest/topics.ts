/**
 * MQTT topics (docs/contracts.md): a datalogger publishes `sw/dl/<PN>/data` (IngestFrame JSON,
 * QoS 1), `sw/dl/<PN>/heartbeat`, `sw/dl/<PN>/ack`, and subscribes to `sw/dl/<PN>/cmd`.
 */
export const TOPIC_PREFIX = 'sw/dl/';
export const PUBLISH_KINDS = ['data', 'heartbeat', 'ack'] as const;
export type PublishKind = (typeof PUBLISH_KINDS)[number];

export function topicOf(pn: string, kind: PublishKind | 'cmd'): string {
  return `${TOPIC_PREFIX}${pn}/${kind}`;
}

/** `sw/dl/<pn>/<kind>` → its parts; undefined for anything else (extra levels, wildcards, empty PN). */
export function parseTopic(topic: string): { pn: string; kind: string } | undefined {
  if (!topic.startsWith(TOPIC_PREFIX)) return undefined;
  const rest = topic.slice(TOPIC_PREFIX.length).split('/');
  if (rest.length !== 2) return undefined;
  const [pn, kind] = rest as [string, string];
  if (!pn || !kind || pn.includes('+') || pn.includes('#')) return undefined;
  return { pn, kind };
}
