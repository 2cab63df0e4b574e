import { describe, expect, it } from 'vitest';
import { PERMISSION_MODULES } from '../permissions.js';
import { PERMISSION_TREE } from '../permissions.js';
import * as accountsAdmin from './accounts-admin.js';
import * as alarms from './alarms.js';
import * as alarmExport from './alarm-export.js';
import { ACTION_NAMES, catalogue, type AccessRule, type ActionDef } from './index.js';

/** Actions that change state (sign-ins issue sessions, updateToken/logout revoke them, …). */
const MUTATING = [
  'auth',
  'authSource',
  'authByRememberToken',
  'updateToken',
  'logout',
  'updatePassword',
  'focusDevice',
  'unfocusDevice',
  // issue 9: account management
  'editAccount',
  'validateInvCode', 'addInvCodeApply', 'addInvCode', 'expireInvCode', 'qrLogin', 'qrScan', 'qrConfirm', // issue 12: entry extras
  'disableOrEnableAccount',
  'editSubAccount',
  'addDist',
  'editDist',
  'delDist',
  'addPlantOwner',
  'addGroupAccount',
  'addSubAdmin',
  'delAccount',
  'resetAccountPassword',
  'setAccountAddCollector',
  'relateOwner',
  'addUsrGroup',
  'editUsrGroup',
  'delUsrGroup',
  'moveAccountGroup',
  'addRole',
  'editRole',
  'delRole',
  'assignRole',
  'editDeviceCtrlFieldForDist',
  'addPlantBrowser',
  'editPlantBrowser',
  'delPlantBrowser',
  'distAddCollector',
  'distributeCollector',
  'distributeCollectorBySheet',
  'distributeCollectorByOrder',
  // issue 10: datalogger management
  'addCollectorToPlant',
  'addCollectorsBySheet',
  'editCollectorEs',
  'restartCollector',
  'resetCollector',
  'unbindCollector',
  'delCollector',
  'debugCollector',
  // issue 10: device operations
  'ctrlDevice',
  'sendCmdToDevice',
  'setDeviceCtrlPwd',
  'editDeviceInfo',
  'delDeviceFromPlant',
  'exportDeviceReport',
  'delExportFile',
  'retryExportFile',
  'syncDeviceData',
  'recalcDeviceData',
  // issue 10: plant management
  'addPlant',
  'editPlant',
  'delPlant',
  'editPlantEnergyOffset',
  'uploadPlantImage',
  'uploadAvatar',
  // issue 11: alarms
  'ignorePlantWarning',
  'handlePlantWarnings',
  'addWarningRule',
  'editWarningRule',
  'delWarningRule',
  // issue 11: reports and exports
  'exportPlantReport',
  'exportDeviceEnergyReport',
  'delReportFile',
  'exportPlantsWarning',
  // issue 11: notifications
  'addEmailPush',
  'editEmailPush',
  'delEmailPush',
  'resendMail',
  // issue 12: self-service
  'getPictureCode',
  'sendSmsCodeMobile',
  'sendSmsCode',
  'confirmSmsCode',
  'smsCodeUpdatePassword',
  'regBindMobileUsually',
  'regBindMailboxUsually',
  'reg',
  'sendBindCode',
  'bindMobile',
  'bindEmail',
  'unbindMobile',
  'unbindEmail',
  // issue 12: branding (operator writes)
  'setPlatformNotice',
  'setConsultParam',
  // issue 13: firmware library
  'uploadFirmware',
  'editFirmware',
  'delFirmware',
  'setDefaultFirmware',
  'addFirmwareKey',
  'revokeFirmwareKey',
  // issue 13: upgrade strategies
  'addUpgradeStrategy',
  'editUpgradeStrategy',
  'cancelUpgradeStrategy',
  'resumeUpgradeStrategy',
  // issue 13: upgrades
  'firmwareUpgradeCollector',
  'cancelCollectorFirmwareUpgrade',
  'firmwareUpgradeDevice',
  'firmwareUpgradeBatch',
  // issue 14: company keys (operator)
  'addCompanyKey',
  'editCompanyKey',
  'setCompanyKeyEnabled',
  // issue 14: PN rules (operator)
  'addManufacturerCode',
  'setManufacturerCodeEnabled',
  // issue 14: recharge remedy (operator)
  'remedyRechargeOrder',
  // issue 15: tariffs
  'addPlantTariff',
  'editPlantTariff',
  'delPlantTariff',
  // issue 15: acceleration orders
  'createAccelerationOrder',
  // issue 15: recharge checkout and payments
  'createRechargeOrder',
  'payOrder',

  // issue 14: log retention (operator)
  'setLogRetention',
  // issue 14: type codes, devcode bindings, devcode changes (operator)
  'addCollectorTypeCode',
  'editCollectorTypeCode',
  'addProtocolBinding',
  'setProtocolBindingEnabled',
  'deleteProtocolBinding',
  'changeDeviceProtocol',
  // issue 14: fleet (operator moves a datalogger)
  'moveCollectorVendor',
  'moveCollectorOwner',
  // issue 14: custom domains and passwordMaintenance (operator)
  'addCustomDomain',
  'editCustomDomain',
  'setCustomDomainEnabled',
  'delCustomDomain',
  'uploadCustomDomainImage',
  'delCustomDomainImage',
  'setVendorCtrlPwd',
  'clearVendorCtrlPwd',
  'editManufacturerCode',
  'deleteManufacturerCode',
  // issue 14: manufacturers (operator, factoryAccount)
  'addManufacturer',
  'editManufacturer',
  'setManufacturerEnabled',
  'adjustManufacturerEcoin',
  // issue 16: web error reporting (the collector stores events)
  'reportWebEvents',
  'reportWebEventsPublic',
];

describe('action catalogue: mutates', () => {
  it('every action declares mutates as a boolean', () => {
    for (const name of ACTION_NAMES) {
      const def = catalogue[name] as ActionDef;
      expect(typeof def.mutates, name).toBe('boolean');
    }
  });

  it('classifies the state-changing actions as mutating and nothing else', () => {
    const mutating = ACTION_NAMES.filter((n) => (catalogue[n] as ActionDef).mutates).sort();
    expect(mutating).toEqual([...MUTATING].sort());
  });

  it('every sign-in action mutates (it issues a session)', () => {
    for (const name of ACTION_NAMES) {
      const def = catalogue[name] as ActionDef;
      if (def.access.auth === 'login') expect(def.mutates, name).toBe(true);
    }
  });

  it('upload rules, where declared, are well formed', () => {
    for (const name of ACTION_NAMES) {
      const def = catalogue[name] as ActionDef;
      if (!def.upload) continue;
      expect(def.upload.maxBytes).toBeGreaterThan(0);
      for (const ext of def.upload.extensions) expect(ext).toMatch(/^\.[a-z0-9]+$/);
    }
  });
});

/** Actions that no module permission limits: sign-in, session and the caller's own account. */
const NO_PERMISSION = [
  'auth',
  'authSource',
  'authByRememberToken',
  'updateToken',
  'logout',
  'queryAccountInfo',
  'logoutVerifiction',
  'updatePassword',
  'editAccount',
  // the caller's own export history (report, alarm and device-report files): personal, any module
  'webQueryReportFiles',
  'queryReportFileUrl',
  'delReportFile',
  // issue 12: self-service
  'getPictureCode',
  'sendSmsCodeMobile',
  'sendSmsCode',
  'confirmSmsCode',
  'smsCodeUpdatePassword',
  'regBindMobileUsually',
  'regBindMailboxUsually',
  'reg',
  'sendBindCode',
  'bindMobile',
  'bindEmail',
  'unbindMobile',
  'unbindEmail',
  'retrieveUsrByPnEs', 'validateInvCode', 'addInvCodeApply', 'qrLogin', 'qrScan', 'qrConfirm', // issue 12: entry extras
  'uploadAvatar',
  // issue 12: public entry-page helpers (branding.ts)
  'queryDomainListNotLogin',
  'queryDomainApp',
  // issue 16: web error reporting, signed or before sign-in (any role reports its own page errors)
  'reportWebEvents',
  'reportWebEventsPublic',
];

describe('action catalogue: access', () => {
  it('every action declares access.permission: a module of the permission tree, or null', () => {
    const missing: string[] = [];
    for (const name of ACTION_NAMES) {
      const access = (catalogue[name] as ActionDef).access as unknown as Record<string, unknown>;
      if (!Object.prototype.hasOwnProperty.call(access, 'permission')) {
        missing.push(name);
        continue;
      }
      const p = access.permission;
      if (p !== null) expect(PERMISSION_MODULES, name).toContain(p);
    }
    expect(missing, 'actions without access.permission').toEqual([]);
  });

  it('only sign-in, session and personal account actions declare no permission', () => {
    const none = ACTION_NAMES.filter((n) => (catalogue[n] as ActionDef).access.permission === null).sort();
    expect(none).toEqual([...NO_PERMISSION].sort());
  });

  it('public and login actions declare no permission (there is no caller to check)', () => {
    for (const name of ACTION_NAMES) {
      const { access } = catalogue[name] as ActionDef;
      if (access.auth !== 'signed') expect(access.permission, name).toBeNull();
    }
  });

  it('the access rule type makes permission required', () => {
    // @ts-expect-error permission is a required key of AccessRule
    const rule: AccessRule = { auth: 'signed' };
    expect(rule.auth).toBe('signed');
  });

  it('telemetry reads (plants, dataloggers, devices) need device management; the fleet overview needs overview', () => {
    for (const name of ACTION_NAMES) {
      const { access } = catalogue[name] as ActionDef;
      // the device-control password of a domain is a system setting (issue 10), not device management
      // so are the per-device results of an upgrade strategy (issue 13, the strategy page's drawer)
      const settings = name === 'setDeviceCtrlPwd' || name === 'queryUpgradeStrategyDevices';
      if (
        /Plant|Collector|Device/.test(name) &&
        !(name in accountsAdmin) &&
        !(name in alarms && name !== 'queryDeviceWarning' && name !== 'queryDeviceWarningCount') &&
        !(name in alarmExport) &&
        !settings
      )
        expect(access.permission, name).toBe('device_manag');
    }
    expect(catalogue.webQueryFleetOverview.access.permission).toBe('overview');
  });

  it('a function point (button), where declared, is a button of the module it names', () => {
    for (const name of ACTION_NAMES) {
      const { access } = catalogue[name] as ActionDef;
      if (access.button === undefined) continue;
      const mod = PERMISSION_TREE.find((m) => m.action === access.permission);
      expect(mod?.buttons, name).toContain(access.button);
    }
  });
});
