import type { FastifyInstance } from 'fastify';
import { JobRunner } from '../jobs/job-runner.js';
import { detectOfflineDataloggers } from '../jobs/detect-offline-dataloggers.job.js';
import { CLEAN_PLANT_PICTURES_MS, cleanPlantPictures } from '../jobs/clean-plant-pictures.job.js';
import { PRUNE_LOGS_EVERY_MS, PRUNE_LOGS_JOB, pruneLogs } from '../jobs/prune-logs.job.js';
import {
  REFRESH_CARD_STATUS_EVERY_MS,
  REFRESH_CARD_STATUS_JOB,
  refreshCardStatuses,
} from '../jobs/refresh-card-status.job.js';
import { PURGE_CODES_EVERY_MS, purgeVerificationCodes } from '../modules/selfservice/purge-codes.job.js';
import { CLEAN_AVATARS_MS, cleanAvatars } from '../modules/accounts/avatars.js';
import { startNotificationJobs } from '../modules/notifications/index.js';
import {
  PRUNE_INGEST_MINUTES_EVERY_MS,
  pruneIngestMinutes,
} from '../modules/telemetry/ingest-minutes.js';
import { startEmbeddedBroker } from './mqtt-broker.js';
import { startMqttBridge } from './mqtt-bridge.js';
import type { MqttTransport } from './mqtt-transport.js';

export { registerIngestRoutes } from './http-ingest.js';
export { MqttPortInUseError } from './mqtt-broker.js';
export type { MqttTransport } from './mqtt-transport.js';
export { topicOf, parseTopic } from './topics.js';

/** Background parts of telemetry, started once the HTTP server listens. */
export interface TelemetryRuntime {
  mqtt: MqttTransport | undefined;
  jobs: JobRunner | undefined;
  close(): Promise<void>;
}

/**
 * Starts MQTT ingestion (embedded broker on MQTT_PORT, or the bridge to MQTT_URL) and the jobs
 * (offline detection every OFFLINE_CHECK_MS under a database lease).
 */
export async function startTelemetryRuntime(app: FastifyInstance): Promise<TelemetryRuntime> {
  const ctx = app.ctx;
  const t = ctx.config.telemetry;
  const ingest = ctx.services.telemetry.ingest;
  const onAck = (pn: string, payload: Buffer) => ctx.services.telemetry.emitAck(pn, payload);
  let mqtt: MqttTransport | undefined;
  if (t.mqttEnabled) {
    mqtt = t.mqttUrl
      ? await startMqttBridge(
          ingest,
          { url: t.mqttUrl, sharedGroup: t.mqttSharedGroup, onAck, clientId: t.mqttClientId },
          ctx.log,
        )
      : await startEmbeddedBroker(
          ingest,
          {
            port: t.mqttPort,
            host: t.mqttHost,
            concurrency: Math.max(1000, t.maxQueue),
            onAck,
            onConnection: (e) => ctx.services.dataloggerEvents.note(e),
            maxPacketBytes: t.limits.maxPacketBytes,
          },
          ctx.log,
        );
  }
  ctx.services.telemetry.mqtt = mqtt;
  // Issue 14: this instance's ingest counts per minute, written once a minute (every instance, no lease).
  ingest.minutes.start();
  let jobs: JobRunner | undefined;
  if (t.jobsEnabled) {
    jobs = new JobRunner(ctx.db, ctx.now, ctx.log);
    jobs.every('detect-offline-dataloggers', t.offlineCheckMs, () =>
      detectOfflineDataloggers(ctx).then(() => undefined),
    );
    jobs.every('clean-plant-pictures', CLEAN_PLANT_PICTURES_MS, () => cleanPlantPictures(ctx).then(() => undefined));
    jobs.every('purge-verification-codes', PURGE_CODES_EVERY_MS, () => purgeVerificationCodes(ctx).then(() => undefined));
    jobs.every('clean-avatars', CLEAN_AVATARS_MS, () => cleanAvatars(ctx).then(() => undefined));
    jobs.every(PRUNE_LOGS_JOB, PRUNE_LOGS_EVERY_MS, () => pruneLogs(ctx));
    jobs.every(REFRESH_CARD_STATUS_JOB, REFRESH_CARD_STATUS_EVERY_MS, () =>
      refreshCardStatuses(ctx).then(() => undefined),
    );
    jobs.every('prune-ingest-minutes', PRUNE_INGEST_MINUTES_EVERY_MS, () =>
      pruneIngestMinutes(ctx.db, ctx.now()).then(() => undefined),
    );
    startNotificationJobs(jobs, ctx.services.notifications, ctx.config.notifications);
  }
  return {
    mqtt,
    jobs,
    async close() {
      jobs?.stop();
      ctx.services.telemetry.mqtt = undefined;
      await mqtt?.close();
      // Drained, not closed: HTTP ingest calls still in flight are stored; the app's onClose closes it.
      await ingest.drain();
      await ingest.minutes.close();
    },
  };
}
