import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/db.js';
import type { ActionLogTable } from '../../db/schema.js';
import { redactParams } from '../../security/redact.js';

export type ActionLogEntry = Omit<Insertable<ActionLogTable>, 'id' | 'params'> & { params: Record<string, unknown> };

const MAX_PARAMS_CHARS = 4000;

/**
 * The stored form of a call's parameters: every secret value (sign, salt, token, passwords,
 * RC4 password fields, remember tokens; `isSecretKey`) replaced, JSON, capped in length.
 */
export function storedParams(params: Record<string, unknown>): string {
  const json = JSON.stringify(redactParams(params));
  return json.length > MAX_PARAMS_CHARS ? json.slice(0, MAX_PARAMS_CHARS) : json;
}

/**
 * The action log: every call of the action endpoint and every write. Entries are queued and
 * written in batches off the request path; `flush()` drains the queue (tests, shutdown).
 * The write promise is always tracked and its failure logged, never left floating.
 */
export class ActionLog {
  private queue: Insertable<ActionLogTable>[] = [];
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly batchDelayMs = 50,
    private readonly maxBatch = 200,
  ) {}

  record(entry: ActionLogEntry): void {
    this.queue.push({ ...entry, params: storedParams(entry.params) });
    if (this.queue.length >= this.maxBatch) this.startWrite();
    else this.timer ??= setTimeout(() => this.startWrite(), this.batchDelayMs);
  }

  /** Writes everything queued so far. */
  async flush(): Promise<void> {
    while (this.writing || this.queue.length > 0) {
      if (!this.writing) this.startWrite();
      await this.writing;
    }
  }

  private startWrite(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.writing || this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.writing = this.db
      .insertInto('action_log')
      .values(batch)
      .execute()
      .then(
        () => undefined,
        (e: unknown) => this.log.error({ err: e, rows: batch.length }, 'action log write failed'),
      )
      .finally(() => {
        this.writing = undefined;
        if (this.queue.length > 0) this.timer ??= setTimeout(() => this.startWrite(), this.batchDelayMs);
      });
  }

  /** Stops the timer and writes what is left (app shutdown). */
  async close(): Promise<void> {
    await this.flush();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
