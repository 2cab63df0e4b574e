import type { AccessService } from '../../access/access.service.js';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../shared/clock.js';
import type { AuditService } from '../audit/audit.service.js';
import type { DeviceResolver } from '../devices/device-resolver.js';
import { AlarmRulesService } from './alarm-rules.service.js';
import { AlarmsRepository } from './alarms.repository.js';
import { AlarmsService } from './alarms.service.js';

/** The alarm services of the context (`ctx.services.alarms`, `ctx.services.alarmRules`). */
export function createAlarmServices(d: {
  db: Db;
  access: AccessService;
  resolver: DeviceResolver;
  audit: AuditService;
  now: Clock;
}): { alarms: AlarmsService; alarmRules: AlarmRulesService } {
  const repo = new AlarmsRepository(d.db);
  const alarmRules = new AlarmRulesService({ repo, access: d.access, audit: d.audit, now: d.now });
  const alarms = new AlarmsService({
    repo,
    access: d.access,
    resolver: d.resolver,
    rules: alarmRules,
    audit: d.audit,
    now: d.now,
  });
  return { alarms, alarmRules };
}
