import { AuthCache, DEFAULT_AUTH_CACHE } from './modules/auth/auth-cache.js';
import path from 'node:path';
import { selfService } from './modules/selfservice/selfservice.service.js';
import { BrandingService } from './modules/branding/branding.service.js';
import { ProtocolToolsRepository } from './modules/protocol-tools/protocol-tools.repository.js';
import { ProtocolToolsService } from './modules/protocol-tools/protocol-tools.service.js';
import { UpgradeStrategiesService } from './modules/upgrade-strategies/upgrade-strategies.service.js';
import type { FastifyBaseLogger } from 'fastify';
import { AccessRepository } from './access/access.repository.js';
import { AccessService } from './access/access.service.js';
import { GroupsService } from './modules/groups/groups.service.js';
import { RolesService } from './modules/roles/roles.service.js';
import { ControlFieldsService } from './modules/roles/control-fields.service.js';
import type { AppConfig } from './config.js';
import type { AppContext } from './context.js';
import { migrateToLatest, openDatabase } from './db/db.js';
import { DbHandle, currentDb } from './db/transaction.js';
import { AuditService } from './modules/audit/audit.service.js';
import { AccountsRepository } from './modules/accounts/accounts.repository.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { createAccountAdmin } from './modules/accounts/account-admin.factory.js';
import { RoleGroupLinks } from './modules/roles/account-links.js';
import { ActionLog } from './modules/action-log/action-log.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { SessionsRepository } from './modules/auth/sessions.repository.js';
import { ThrottleRepository } from './modules/auth/throttle.repository.js';
import { LoginThrottle } from './modules/auth/throttle.service.js';
import { CompanyKeysService } from './modules/company-keys/company-keys.service.js';
import { OperatorLogsService } from './modules/operator-logs/operator-logs.service.js';
import { WebErrorsService } from './modules/web-errors/web-errors.service.js';
import { WebEventsRepository } from './modules/web-errors/web-errors.repository.js';
import { SampleRetention } from './db/sample-retention.js';
import { CustomDomainsService } from './modules/custom-domains/custom-domains.service.js';
import { VendorCtrlPwdService } from './modules/custom-domains/vendor-ctrl-pwd.service.js';
import { brandingSeedDomains } from './modules/branding/branding.config.js';
import { ManufacturerCodesService } from './modules/manufacturer-codes/manufacturer-codes.service.js';
import { RechargeOrdersService } from './modules/recharge-orders/recharge-orders.service.js';
import { RechargeRecordsService } from './modules/recharge-records/recharge-records.service.js';
import { TariffsRepository } from './modules/tariffs/tariffs.repository.js';
import { IncomeService } from './modules/tariffs/income.service.js';
import { TariffsService } from './modules/tariffs/tariffs.service.js';
import { RechargeCheckoutService } from './modules/recharge-orders/recharge-checkout.service.js';
import { CardRenewalCompletion } from './modules/recharge-orders/card-renewal.js';
import { RechargePayable, rechargeResultDetails } from './modules/recharge-orders/recharge-payable.js';
import { PaymentsService } from './modules/payments/payments.service.js';
import { SandboxProvider } from './modules/payments/sandbox-provider.js';
import { AccelerationRepository } from './modules/acceleration/acceleration.repository.js';
import { AccelerationService } from './modules/acceleration/acceleration.service.js';
import { AccelerationDelivery } from './modules/acceleration/acceleration-delivery.js';
import { AccelerationPayable, accelerationResultDetails } from './modules/acceleration/acceleration.payable.js';
import { ProtocolAdminService } from './modules/protocol-admin/protocol-admin.service.js';
import { OperatorHomeService } from './modules/operator-home/operator-home.service.js';
import { ManufacturersService } from './modules/manufacturers/manufacturers.service.js';
import { Keyring, loadMasterKey } from './security/keyring.js';
import { createTelemetry } from './modules/telemetry/create-telemetry.js';
import { LocalBlobStore } from './shared/blob-store.js';
import { UpgradeEngineService } from './modules/upgrades/upgrade-engine.js';
import { UpgradesService } from './modules/upgrades/upgrades.service.js';
import { jobCaller } from './modules/accounts/job-caller.js';
import { DataloggersRepository } from './modules/dataloggers/dataloggers.repository.js';
import { DataloggersService } from './modules/dataloggers/dataloggers.service.js';
import { DeviceCurvesService } from './modules/devices/device-curves.service.js';
import { DeviceFollowService } from './modules/devices/device-follow.service.js';
import { DeviceListService } from './modules/devices/device-list.service.js';
import { DeviceReadsService } from './modules/devices/device-reads.service.js';
import { DeviceResolver } from './modules/devices/device-resolver.js';
import { DeviceStatisticsService } from './modules/devices/device-statistics.service.js';
import { DevicesRepository } from './modules/devices/devices.repository.js';
import { EnergyRepository } from './modules/energy/energy.repository.js';
import { EnergyService } from './modules/energy/energy.service.js';
import { OverviewRepository } from './modules/overview/overview.repository.js';
import { OverviewService } from './modules/overview/overview.service.js';
import { createAlarmServices } from './modules/alarms/index.js';
import { muteByRules } from './modules/alarms/alarm-mute.js';
import { PlantsRepository } from './modules/plants/plants.repository.js';
import { ViewersRepository } from './modules/viewers/viewers.repository.js';
import { ViewersService } from './modules/viewers/viewers.service.js';
import { DistributionRepository } from './modules/distribution/distribution.repository.js';
import { DistributionService } from './modules/distribution/distribution.service.js';
import { PlantsService } from './modules/plants/plants.service.js';
import { PlantAdminRepository } from './modules/plants/plant-admin.repository.js';
import { PlantAdminService } from './modules/plants/plant-admin.service.js';
import { PlantFleetService } from './modules/plants/plant-fleet.service.js';
import { PlantImages, pictureDiscarder } from './modules/plants/plant-images.js';
import { AccountAvatars } from './modules/accounts/avatars.js';
import { DataloggerCommands } from './modules/operations/command.service.js';
import { OperationLog } from './modules/operations/operation-log.service.js';
import { DataloggerEvents } from './modules/dataloggers/datalogger-events.service.js';
import { CollectorAdminRepository } from './modules/dataloggers/collector-admin.repository.js';
import { CollectorAdminService } from './modules/dataloggers/collector-admin.service.js';
import { createDeviceOps } from './modules/devices/ops/index.js';
import { createReports } from './modules/reports/index.js';
import { createNotifications } from './modules/notifications/index.js';
import { FirmwareRepository } from './modules/firmware/firmware.repository.js';
import { FirmwareService } from './modules/firmware/firmware.service.js';

/** Opens and migrates the database, then wires repositories and services together. */
export async function createContext(config: AppConfig, log: FastifyBaseLogger): Promise<AppContext> {
  const database = openDatabase(config, (err) =>
    log.warn({ err }, 'PostgreSQL idle connection lost; the pool replaces it'),
  );
  try {
    await migrateToLatest(database);
    const { db } = database;
    const now = config.now;
    const keyring = new Keyring(loadMasterKey(config));
    // Repositories keep the root db and run in the caller's transaction when one is open (`currentDb`).
    const dbh = new DbHandle(db);
    const audit = new AuditService(db, now);
    const accountsRepo = new AccountsRepository(db);
    const sessionsRepo = new SessionsRepository(db);
    const throttleRepo = new ThrottleRepository(db);
    const companyKeys = new CompanyKeysService(db, now, audit);
    await companyKeys.seed(config.companyKeys);
    const customDomains = new CustomDomainsService(db, now, audit);
    await customDomains.seed(brandingSeedDomains(config.branding), (msg) => log.warn(msg));
    const manufacturerCodes = new ManufacturerCodesService(db, now, audit);
    const accounts = new AccountsService(accountsRepo, sessionsRepo, keyring, now);
    const throttle = new LoginThrottle(throttleRepo, config.loginThrottle, now, dbh);
    const auth = new AuthService(
      config,
      accountsRepo,
      accounts,
      sessionsRepo,
      throttle,
      companyKeys,
      keyring,
      now,
      audit,
      dbh,
      new AuthCache(config.authCache ?? DEFAULT_AUTH_CACHE, async () => {
        const row = await db.selectFrom('auth_epoch').select('epoch').where('id', '=', 1).executeTakeFirst();
        return Number(row?.epoch ?? 0);
      }),
    );

    // Telemetry reads: access, then one service per responsibility over its repositories.
    const access = new AccessService(new AccessRepository(db), accountsRepo);
    const plantsRepo = new PlantsRepository(db);
    const dataloggersRepo = new DataloggersRepository(db);
    const devicesRepo = new DevicesRepository(db);
    const energyRepo = new EnergyRepository(db);
    const energy = new EnergyService(energyRepo, now);
    const resolver = new DeviceResolver(access, devicesRepo);
    const groups = new GroupsService({ db, accounts, audit, now });
    const telemetry = createTelemetry(config, database, log);
    // Issue 10: commands to dataloggers, their operation history and the datalogger log.
    const protocolAdmin = new ProtocolAdminService({
      db,
      now,
      audit,
      bindingsChanged: () => telemetry.ingest.bindings.invalidate(),
      invalidatePn: (pn) => telemetry.ingest.invalidate(pn),
    });
    const commands = new DataloggerCommands({ db, telemetry, now, timeoutMs: config.telemetry.commandAckTimeoutMs });
    const operations = new OperationLog({ db, dbh, now });
    const dataloggerEvents = new DataloggerEvents({
      db,
      dbh,
      now,
      onError: (err) => log.warn({ err }, 'datalogger log: write failed'),
    });
    commands.observe((e) => dataloggerEvents.note(e));
    const actionLog = new ActionLog(db, log);
    const distributionRepo = new DistributionRepository(db, now);
    // Issue 16: web error reporting (the web app's errors, slow pages and session trails).
    const webErrors = new WebErrorsService({
      repo: new WebEventsRepository(db),
      now,
      manufacturerOnPath: (p) => distributionRepo.manufacturerOnPath(p),
    });
    const operatorLogs = new OperatorLogsService({
      db,
      now,
      defaults: config.logRetention,
      actionLog,
      events: dataloggerEvents,
      audit,
      samples: new SampleRetention(db, database.dialect.engine, config.samplePrune),
      webEvents: webErrors,
    });
    const tariffsRepo = new TariffsRepository(db);
    const income = new IncomeService(tariffsRepo, now);
    const plants = new PlantsService({ access, plants: plantsRepo, devices: devicesRepo, energyRepo, energy, now, income });
    const plantAdminRepo = new PlantAdminRepository(db);
    const tariffs = new TariffsService({ repo: tariffsRepo, income, plants, access, audit, now });
    const plantImages = new PlantImages(config.dataDir);
    const alarmServices = createAlarmServices({ db, access, resolver, audit, now });
    // Issue 13: firmware images live in the blob store; the engine drives upgrades over MQTT.
    const blobs = new LocalBlobStore(path.join(config.dataDir, 'blobs'));
    const upgradeEngine = new UpgradeEngineService({
      db,
      blobs,
      commands,
      telemetry,
      operations,
      now,
      log,
      options: config.upgrades,
    });
    // Issue 15: recharge orders renew their cards on success; payments through providers.
    const rechargeOrders = new RechargeOrdersService(db, now, audit, new CardRenewalCompletion(db, now, audit), {
      creditWindowMs: config.payments.creditWindowMs,
    });
    const payments = new PaymentsService({ db, dbh, now, audit, config: config.payments });
    if (config.payments.sandboxEnabled) payments.registerProvider(new SandboxProvider(config.payments.sandboxSecret, now));
    payments.register(new RechargePayable(rechargeOrders), (d, no) => rechargeResultDetails(d, no));
    // Issue 15: acceleration orders; a paid order's interval change is delivered over MQTT.
    const accelerationRepo = new AccelerationRepository(db);
    const acceleration = new AccelerationService({
      repo: accelerationRepo,
      access,
      audit,
      now,
      onPaid: () => accelerationDelivery.kick(),
      paymentWindowMs: config.payments.paymentWindowMs,
    });
    const accelerationDelivery = new AccelerationDelivery({
      repo: accelerationRepo,
      dbh,
      commands,
      audit,
      operations,
      expireLapsed: () => acceleration.expireLapsed(),
      now,
      log,
    });
    payments.register(new AccelerationPayable(acceleration), (d, no) => accelerationResultDetails(d, no));
    const ctx: AppContext = {
      config,
      blobs,
      db,
      dbh,
      dialect: database.dialect,
      database,
      keyring,
      log,
      now,
      repos: {
        accounts: accountsRepo,
        sessions: sessionsRepo,
        throttle: throttleRepo,
        plants: plantsRepo,
        dataloggers: dataloggersRepo,
        devices: devicesRepo,
        energy: energyRepo,
      },
      services: {
        branding: new BrandingService({ db, audit, now, config: config.branding, domains: customDomains }),
        customDomains,
        vendorCtrlPwd: new VendorCtrlPwdService(db, { set: (...a) => ctx.services.deviceOps.pwd.set(...a) }, customDomains.repo),
        contactNotices: { notifyContactChange: (...a) => selfService(ctx).notifyContactChange(...a) },
        upgradeStrategies: new UpgradeStrategiesService({ db, access, audit, now }),
        protocolTools: new ProtocolToolsService({
          repo: new ProtocolToolsRepository(() => currentDb(db)),
          limits: config.telemetry.limits,
        }),
        accounts,
        accountAdmin: createAccountAdmin({
          db,
          accountsRepo,
          accounts,
          sessions: sessionsRepo,
          audit,
          now,
          links: new RoleGroupLinks(db),
        }),
        auth,
        throttle,
        companyKeys,
        manufacturerCodes,
        rechargeRecords: new RechargeRecordsService(db, access, now),
        rechargeOrders,
        rechargeCheckout: new RechargeCheckoutService({
          db,
          access,
          repo: rechargeOrders.repo,
          now,
          audit,
          providerOf: (m) => payments.providerFor(m)?.id,
          rechargeCards: (caller, pns) => ctx.services.collectorAdmin.rechargeCards(caller, pns),
        }),
        payments,
        acceleration,
        accelerationDelivery,
        actionLog,
        operatorLogs,
        webErrors,
        protocolAdmin,
        operatorHome: new OperatorHomeService(db, now, database.dialect.engine),
        manufacturers: new ManufacturersService(db, now, audit, {
          addManufacturer: (...a) => ctx.services.accountAdmin.addManufacturer(...a),
          setEnabled: (...a) => ctx.services.accountAdmin.setEnabled(...a),
        }),
        audit,
        telemetry,
        commands,
        operations,
        dataloggerEvents,
        collectorAdmin: new CollectorAdminService({
          repo: new CollectorAdminRepository(db, now),
          dbh,
          access,
          accounts: accountsRepo,
          manufacturerOnPath: (path) => distributionRepo.manufacturerOnPath(path),
          makerForPn: (pn) => manufacturerCodes.makerForPn(pn),
          stockType: (pn, vendorCode) => protocolAdmin.stockType(pn, vendorCode),
          insertStock: (pn, alias, adminId, vendorId, typeCode, commMethod) =>
            distributionRepo.insertStock(pn, alias, adminId, vendorId, typeCode, commMethod),
          defaultPlantOf: (ownerId) => distributionRepo.defaultPlantOf(ownerId),
          createDefaultPlant: (ownerId, dl) => distributionRepo.createDefaultPlant(ownerId, dl),
          commands,
          operations,
          audit,
          events: dataloggerEvents,
          invalidate: (pn) => telemetry.ingest.invalidate(pn),
          drainIngest: () => telemetry.ingest.drain(),
          mqttPort: () => config.telemetry.mqttPort,
          now,
        }),
        access,
        plants,
        plantAdmin: new PlantAdminService({
          repo: plantAdminRepo,
          plants,
          access,
          accounts: accountsRepo,
          audit,
          now,
          pictures: pictureDiscarder(plantImages, dbh, (urls) => plantAdminRepo.picturesInUse(urls)),
          pricesEdited: (caller, row, after) => tariffs.pricesEdited(caller, row, after),
        }),
        plantFleet: new PlantFleetService({
          access,
          plantsRepo,
          plants,
          adminRepo: plantAdminRepo,
          devices: devicesRepo,
          energyRepo,
          energy,
          now,
          dayIncome: (projectId, tz, day) => income.day(projectId, tz, day),
        }),
        tariffs,
        income,
        plantImages,
        avatars: new AccountAvatars(config.dataDir),
        dataloggers: new DataloggersService({ access, dataloggers: dataloggersRepo }),
        devices: {
          list: new DeviceListService({ access, devices: devicesRepo, energy, resolver, income, now }),
          reads: new DeviceReadsService({ resolver, now }),
          curves: new DeviceCurvesService({ resolver, devices: devicesRepo }),
          statistics: new DeviceStatisticsService({ resolver, devices: devicesRepo, energy, energyRepo, now, income }),
          follow: new DeviceFollowService({ resolver, devices: devicesRepo, audit, now }),
        },
        overview: new OverviewService({
          access,
          overview: new OverviewRepository(db),
          plants: plantsRepo,
          dataloggers: dataloggersRepo,
          devices: devicesRepo,
          energy: energyRepo,
          now,
          income,
        }),
        groups,
        roles: new RolesService({ db, accounts, groups, audit, now }),
        controlFields: new ControlFieldsService({
          db,
          audit,
          requireVisible: (caller, devcode) => ctx.services.manufacturers.requireVisible(caller, devcode),
        }),
        viewers: new ViewersService({
          repo: new ViewersRepository(db),
          accounts: accountsRepo,
          accountsService: accounts,
          access,
          sessions: sessionsRepo,
          audit,
          now,
        }),
        distribution: new DistributionService({
          repo: distributionRepo,
          accounts: accountsRepo,
          audit,
          makerForPn: (pn) => manufacturerCodes.makerForPn(pn),
          stockType: (pn, vendorCode) => protocolAdmin.stockType(pn, vendorCode),
        }),
        firmware: new FirmwareService({
          repo: new FirmwareRepository(db),
          dbh,
          blobs,
          accounts: accountsRepo,
          manufacturerOnPath: (p) => distributionRepo.manufacturerOnPath(p),
          audit,
          keyring,
          now,
        }),
        deviceOps: createDeviceOps(
          { db, dbh, keyring, log, now, access, accounts: accountsRepo, audit, devicesRepo, energyRepo },
          () => ctx.services,
        ),
        ...alarmServices,
        reports: createReports(
          {
            db,
            dbh,
            audit,
            keyring,
            dataDir: config.dataDir,
            accounts: accountsRepo,
            roleFunctions: (id) => access.roleFunctions(id),
            energyRepo,
            resolver,
            log,
            now,
          },
          () => ctx.services,
        ),
        notifications: createNotifications({
          ...{ db, dbh, access, audit, config: config.notifications, now, log },
          engine: database.dialect.engine,
          suppressed: muteByRules(alarmServices.alarmRules),
          loadAttachment: (ref) => ctx.services.reports.files.attachment(ref.exportFileId),
        }),
        upgradeEngine,
        upgrades: new UpgradesService({
          db,
          dbh,
          access,
          audit,
          engine: upgradeEngine,
          manufacturerOnPath: (p) => distributionRepo.manufacturerOnPath(p),
          jobCaller: (id) => jobCaller(accountsRepo, (a) => access.roleFunctions(a), id),
          log,
          now,
        }),
      },
    };
    return ctx;
  } catch (e) {
    await database.close();
    throw e;
  }
}
