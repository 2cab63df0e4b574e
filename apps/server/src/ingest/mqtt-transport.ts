/** What the server holds of its MQTT side, embedded broker or bridge to an external one. */
export interface MqttTransport {
  mode: 'embedded' | 'external';
  /** The embedded broker's bound port (external: the broker URL's port). */
  port: number;
  /** Publish to a datalogger (e.g. `sw/dl/<PN>/cmd`), QoS 1. */
  publish(topic: string, payload: string | Buffer): Promise<void>;
  /**
   * Embedded broker only: whether a datalogger holds a signed-in connection now (a command to one
   * that does not cannot be delivered: err 263 at once). Absent when the server cannot know.
   */
  isConnected?(pn: string): boolean;
  /** Whether ingestion over MQTT works now: the embedded broker listens, or the bridge is connected (/readyz). */
  connected(): boolean;
  /** Embedded broker only: dataloggers holding a signed-in connection (the /metrics gauge). */
  connectedDataloggers?(): number;
  /**
   * Graceful: takes no new connection or frame (a frame arriving now is refused without PUBACK, so
   * its datalogger sends it again), waits until the frames in flight are stored and acknowledged,
   * then closes the connections.
   */
  close(): Promise<void>;
}
