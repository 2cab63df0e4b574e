/** What the server holds of its MQTT side, embedded broker or bridge to an external one. */
export interface MqttTransport {
  mode: 'embedded' | 'external';
  /** The embedded broker's bound port (external: the broker URL's port). */
  port: number;
  /** Publish to a datalogger (e.g. `sw/dl/<PN>/cmd`), QoS 1. */
  publish(topic: string, payload: string | Buffer): Promise<void>;
  close(): Promise<void>;
}
