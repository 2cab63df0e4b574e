import type { Heartbeat, IngestFrame } from '@sunwatch/protocol';
import { withTimeout, type Command, type Publisher } from './publisher.js';
import { assertLoopback, ingestPaths } from './topics.js';

export interface HttpPublisherOptions {
  /** Server base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  pn: string;
  token?: string;
  timeoutMs?: number;
}

/**
 * HTTP ingest link: `POST /ingest/v1/<PN>/data|heartbeat` with `Authorization: Bearer <token>`;
 * the answer is `{err, desc}` (0 = stored). There is no command channel over HTTP.
 */
export class HttpPublisher implements Publisher {
  private readonly paths: ReturnType<typeof ingestPaths>;
  private readonly base: string;
  private up = false;

  constructor(private readonly opts: HttpPublisherOptions) {
    assertLoopback(opts.url);
    this.base = opts.url.replace(/\/+$/, '');
    this.paths = ingestPaths(opts.pn);
  }

  get connected(): boolean {
    return this.up;
  }

  connect(): Promise<void> {
    this.up = true;
    return Promise.resolve();
  }

  private async post(path: string, body: unknown): Promise<void> {
    if (!this.up) throw new Error('not connected');
    const res = await withTimeout(
      fetch(this.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.token ?? ''}` },
        body: JSON.stringify(body),
      }),
      this.opts.timeoutMs ?? 10_000,
      `POST ${path}`,
    );
    const text = await res.text();
    let answer: { err?: unknown; desc?: unknown } = {};
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      /* not JSON */
    }
    if (!res.ok || (answer.err !== undefined && answer.err !== 0)) {
      throw new Error(
        `POST ${path}: HTTP ${res.status} err ${String(answer.err)} ${String(answer.desc ?? text.slice(0, 80))}`,
      );
    }
  }

  publishFrame(frame: IngestFrame): Promise<void> {
    return this.post(this.paths.data, frame);
  }

  publishHeartbeat(hb: Heartbeat): Promise<void> {
    return this.post(this.paths.heartbeat, hb);
  }

  onCommand(_handler: (cmd: Command) => void): void {
    // No command channel over HTTP.
  }

  ack(_body: Record<string, unknown>): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.up = false;
    return Promise.resolve();
  }
}
