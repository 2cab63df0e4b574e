/**
 * Configuration of the notifications (issue 11), read by `loadConfig` from the environment:
 *
 * | variable | default | meaning |
 * | --- | --- | --- |
 * | `SMTP_URL` | unset | `smtp://user:pass@host:587` or `smtps://…:465`: mails are sent through it; unset = mails stay in the outbox (operator: queryMailOutbox) |
 * | `MAIL_FROM` | `Sunwatch <no-reply@sunwatch.local>` | sender address |
 * | `PUBLIC_URL` | `http://localhost:<PORT>` | base of the links in mails (`<PUBLIC_URL>/<area>/alarm?id=<id>`) |
 * | `ALARM_MAIL_SCAN_MS` | `30000` | how often new and ended alarms are collected into one digest per subscription |
 * | `MAIL_SEND_MS` | `5000` | how often the queue is sent |
 * | `MAIL_MAX_ATTEMPTS` | `12` | attempts before a mail is given up (`failed`) |
 * | `MAIL_RETRY_BASE_MS` | `30000` | first retry delay; doubles per attempt up to `MAIL_RETRY_MAX_MS` (1 h) |
 * | `MAIL_RETENTION_DAYS` | `30` | mails sent longer ago than this are deleted by the sender job (checked every 10 min) |
 */
export interface NotificationsConfig {
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  alarmScanMs: number;
  sendMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A claimed mail whose sender vanished is sent again after this long. */
  claimMs: number;
  /** Alarms that started longer ago than this (backfilled history) are not mailed. */
  staleMs: number;
  /** SMTP connection / greeting / socket timeout. */
  smtpTimeoutMs: number;
  /** Mails sent longer ago than this many days are pruned by the sender job. */
  retentionDays: number;
  /** How often the sender job prunes. */
  pruneEveryMs: number;
}

function int(value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`Not a number: ${value}`);
  return Math.max(min, Math.trunc(n));
}

export function loadNotificationsConfig(env: NodeJS.ProcessEnv, port: number): NotificationsConfig {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\//i.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return {
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || 'Sunwatch <no-reply@sunwatch.local>',
    publicUrl: (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ''),
    alarmScanMs: int(env.ALARM_MAIL_SCAN_MS, 30_000, 50),
    sendMs: int(env.MAIL_SEND_MS, 5_000, 50),
    maxAttempts: int(env.MAIL_MAX_ATTEMPTS, 12, 1),
    retryBaseMs: int(env.MAIL_RETRY_BASE_MS, 30_000, 0),
    retryMaxMs: int(env.MAIL_RETRY_MAX_MS, 60 * 60_000, 0),
    claimMs: 5 * 60_000,
    staleMs: 24 * 60 * 60_000,
    smtpTimeoutMs: int(env.SMTP_TIMEOUT_MS, 30_000, 100),
    retentionDays: int(env.MAIL_RETENTION_DAYS, 30, 1),
    pruneEveryMs: 10 * 60_000,
  };
}

/** Delay before attempt `attempts + 1` after `attempts` failed ones: base · 2^(attempts−1), capped. */
export function retryDelayMs(cfg: Pick<NotificationsConfig, 'retryBaseMs' | 'retryMaxMs'>, attempts: number): number {
  return Math.min(cfg.retryMaxMs, cfg.retryBaseMs * 2 ** Math.max(0, Math.min(30, attempts - 1)));
}

/** SMTP_URL without its password, for logs. */
export function redactSmtpUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
