import type { Heartbeat, IngestFrame } from '@sunwatch/protocol';

/** A command from the server on `sw/dl/<PN>/cmd` (parsed JSON). */
export type Command = Record<string, unknown>;

/** How a datalogger reaches the server (MQTT or HTTP). */
export interface Publisher {
  readonly connected: boolean;
  connect(): Promise<void>;
  /** Delivered (QoS 1 acknowledged / HTTP answered err 0) or rejected. */
  publishFrame(frame: IngestFrame): Promise<void>;
  publishHeartbeat(hb: Heartbeat): Promise<void>;
  /** Commands from the server (MQTT only). */
  onCommand(handler: (cmd: Command) => void): void;
  ack(body: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/** Rejects after `ms` unless the promise settles first. */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
