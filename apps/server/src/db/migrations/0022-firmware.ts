import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.js';

/**
 * Issue 13 (firmware), every table of the capability in one migration so the library, the
 * upgrade engine and the strategies share one schema (docs/firmware/contract.md):
 * - `firmware_signing_keys`: the Ed25519 public keys a manufacturer signs its images with (the
 *   private key never reaches the platform);
 * - `firmwares`: the library; the image itself lives in the blob store (`blob_key`), never here;
 * - `default_firmwares`: one default firmware per manufacturer and datalogger type;
 * - `upgrade_batches` / `upgrade_tasks`: one task per datalogger or device upgrade (vendor `key`);
 * - `upgrade_strategies` / `upgrade_strategy_devices`: strategies, their staged rollout and the
 *   per-device result.
 */
export function firmware(d: SqlDialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await d
        .addIdColumn(db.schema.createTable('firmware_signing_keys'))
        .addColumn('vendor_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
        /** Raw 32-byte Ed25519 public key, base64. */
        .addColumn('public_key', 'text', (c) => c.notNull())
        /** First 16 hex digits of SHA-256(raw public key): how people and images name the key. */
        .addColumn('fingerprint', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'integer')
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        /** A revoked key verifies nothing new; images it signed stop being distributable. */
        .addColumn('revoked_at', d.bigint)
        .execute();
      await db.schema.createIndex('firmware_signing_keys_vendor_idx').on('firmware_signing_keys').column('vendor_id').execute();

      await d
        .addIdColumn(db.schema.createTable('firmwares'))
        /** The public firmware id (`firmware` of firmwareUpgradeCollector): 16 lower-case hex digits. */
        .addColumn('code', 'text', (c) => c.notNull().unique())
        /** The manufacturer that owns it (its distributors see and use it). */
        .addColumn('vendor_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        /** FIRMWARE_TYPES: 0 general, 1 communication, 2 control 1, 3 control 2, 4 BMS, 5 slave MCU. */
        .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
        /** Baud rate for device (RS-485) upgrades; null when it does not apply. */
        .addColumn('baud_rate', 'integer')
        /** Upload form `upgradeMode` (see protocol firmware.ts). */
        .addColumn('upgrade_mode', 'integer', (c) => c.notNull().defaultTo(0))
        /** Upload form `note` and the optional per-language notes (JSON object locale → text). */
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('i18n', 'text', (c) => c.notNull().defaultTo('{}'))
        /** 0 firmware manager (8M), 1 upgrade management (1MB). */
        .addColumn('source', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        /** SHA-256 of the image, 64 lower-case hex digits. */
        .addColumn('sha256', 'text', (c) => c.notNull())
        /** Ed25519 signature over the 32 raw bytes of the SHA-256, base64; '' when unsigned. */
        .addColumn('signature', 'text', (c) => c.notNull().defaultTo(''))
        /** The signing key that verified `signature` at upload; null when unsigned or unverified. */
        .addColumn('key_id', 'integer', (c) => c.references('firmware_signing_keys.id'))
        /** Where the blob store keeps the image. */
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer')
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        /** Deleted firmware keeps its row (tasks and history name it); its blob is removed. */
        .addColumn('deleted_at', d.bigint)
        .execute();
      await db.schema.createIndex('firmwares_vendor_idx').on('firmwares').columns(['vendor_id', 'created_at']).execute();

      await db.schema
        .createTable('default_firmwares')
        .addColumn('vendor_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        /** The datalogger type (`dataloggers.model`). */
        .addColumn('datalogger_type', 'text', (c) => c.notNull())
        .addColumn('firmware_id', 'integer', (c) => c.notNull().references('firmwares.id'))
        .addColumn('updated_by', 'integer')
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('default_firmwares_pk', ['vendor_id', 'datalogger_type'])
        .execute();

      await d
        .addIdColumn(db.schema.createTable('upgrade_batches'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('firmware_id', 'integer', (c) => c.notNull().references('firmwares.id'))
        /** 0 datalogger, 1 device. */
        .addColumn('target', 'integer', (c) => c.notNull().defaultTo(0))
        /** The filter a batch by filter was chosen with (JSON), '' for a selection. */
        .addColumn('filter', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .execute();

      await d
        .addIdColumn(db.schema.createTable('upgrade_strategies'))
        /** Shown as the strategy code, e.g. `ST20261125-0007`. */
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('vendor_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('created_by', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('firmware_id', 'integer', (c) => c.notNull().references('firmwares.id'))
        /** FIRMWARE_TYPES. */
        .addColumn('fw_type', 'integer', (c) => c.notNull())
        .addColumn('baud_rate', 'integer', (c) => c.notNull())
        /** 0 force, 1 suggested. */
        .addColumn('method', 'integer', (c) => c.notNull().defaultTo(0))
        /** The timezone the times were entered in, seconds east of UTC. */
        .addColumn('tz_offset', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('starts_at', d.bigint, (c) => c.notNull())
        .addColumn('ends_at', d.bigint, (c) => c.notNull())
        .addColumn('reminder', 'text', (c) => c.notNull().defaultTo(''))
        /** Staged rollout: share of the devices upgraded first (0 = no canary stage). */
        .addColumn('canary_percent', 'integer', (c) => c.notNull().defaultTo(0))
        /** A stage pauses the rollout when more than this share of its finished upgrades failed. */
        .addColumn('failure_threshold_percent', 'integer', (c) => c.notNull().defaultTo(20))
        /** 0 canary stage, 1 the rest. */
        .addColumn('stage', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('pause_reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cancelled_at', d.bigint)
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('upgrade_strategies_vendor_idx').on('upgrade_strategies').columns(['vendor_id', 'created_at']).execute();
      await db.schema.createIndex('upgrade_strategies_firmware_idx').on('upgrade_strategies').column('firmware_id').execute();

      await d
        .addIdColumn(db.schema.createTable('upgrade_tasks'))
        /** The vendor task `key`: 24 lower-case hex digits. */
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('pn', 'text', (c) => c.notNull())
        /** 0 the datalogger itself, 1 a device behind it (devcode/devaddr/sn set). */
        .addColumn('target', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('devcode', 'integer')
        .addColumn('devaddr', 'integer')
        .addColumn('sn', 'text')
        .addColumn('firmware_id', 'integer', (c) => c.notNull().references('firmwares.id'))
        .addColumn('fw_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('baud_rate', 'integer')
        /** FIRMWARE_UPGRADE_STATUS: 0 running, 1 exception, 2 failed, 3 success, 4 cancelled, 5 not in upgrade. */
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        /** Where a running task is: 'waiting' (offline, resumes on reconnect), 'transfer', 'flash'; 'done' once ended. */
        .addColumn('phase', 'text', (c) => c.notNull().defaultTo('waiting'))
        /** 0..1000. */
        .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
        /** Bytes the datalogger acknowledged (the resume offset). */
        .addColumn('sent_bytes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('from_version', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('to_version', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('batch_id', 'integer', (c) => c.references('upgrade_batches.id'))
        .addColumn('strategy_id', 'integer', (c) => c.references('upgrade_strategies.id'))
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id'))
        .addColumn('usr', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', d.bigint, (c) => c.notNull())
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addColumn('ended_at', d.bigint)
        /** The server instance driving the transfer and until when (several instances share the work). */
        .addColumn('lease_owner', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('lease_until', d.bigint, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('upgrade_tasks_pn_idx').on('upgrade_tasks').columns(['pn', 'created_at']).execute();
      await db.schema.createIndex('upgrade_tasks_status_idx').on('upgrade_tasks').columns(['status', 'phase']).execute();
      await db.schema.createIndex('upgrade_tasks_strategy_idx').on('upgrade_tasks').column('strategy_id').execute();
      await db.schema.createIndex('upgrade_tasks_batch_idx').on('upgrade_tasks').column('batch_id').execute();

      await d
        .addIdColumn(db.schema.createTable('upgrade_strategy_devices'))
        .addColumn('strategy_id', 'integer', (c) => c.notNull().references('upgrade_strategies.id').onDelete('cascade'))
        .addColumn('pn', 'text', (c) => c.notNull())
        /** 0 the datalogger, 1 a device (devcode/devaddr/sn set; sn '' for the datalogger). */
        .addColumn('target', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('devcode', 'integer')
        .addColumn('devaddr', 'integer')
        .addColumn('sn', 'text', (c) => c.notNull().defaultTo(''))
        /** 0 canary stage, 1 the rest. */
        .addColumn('stage', 'integer', (c) => c.notNull().defaultTo(1))
        /** 0 not upgraded, 1 upgrading, 2 succeeded, 3 failed. */
        .addColumn('result', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('task_key', 'text')
        .addColumn('updated_at', d.bigint, (c) => c.notNull())
        .addUniqueConstraint('upgrade_strategy_devices_uq', ['strategy_id', 'pn', 'sn'])
        .execute();
    },
    async down() {
      // Forward-only migrations.
    },
  };
}
