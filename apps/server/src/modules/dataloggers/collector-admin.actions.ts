import fs from 'node:fs/promises';
import { ApiError } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { readSheet, SheetFormatError, sheetKindOf } from '../../shared/sheets/sheet-reader.js';
import { COLLECTOR_SHEET_MAX_ROWS } from './collector-admin.service.js';

/** The rows of an uploaded .xlsx: column A PN, column B alias, no header; blank rows skipped. */
async function sheetItems(file: { filename: string; path: string } | undefined) {
  if (!file) throw new ApiError(7, 'file');
  // Spec §5: the batch datalogger file is xlsx only.
  if (sheetKindOf(file.filename) !== 'xlsx') throw new ApiError(6, 'file');
  let rows;
  try {
    rows = readSheet(new Uint8Array(await fs.readFile(file.path)), 'xlsx');
  } catch (e) {
    if (e instanceof SheetFormatError) throw new ApiError(6, 'file');
    throw e;
  }
  if (rows.length === 0) throw new ApiError(7, 'file');
  if (rows.length > COLLECTOR_SHEET_MAX_ROWS) throw new ApiError(13, 'file');
  return rows.map((r) => ({ row: r.row, pn: r.cells[0] ?? '', alias: r.cells[1] ?? '' }));
}

/** Datalogger management actions (issue 10; protocol `dataloggers-admin.ts`). */
export const collectorAdminHandlers: HandlerMap = {
  addCollectorToPlant: async ({ params, ...i }, ctx) => {
    await ctx.services.collectorAdmin.addToPlant(callerOf(i), params.plantid, params.pn, params.alias);
    return undefined;
  },
  addCollectorsBySheet: async ({ params, call, ...i }, ctx) =>
    ctx.services.collectorAdmin.addBySheet(callerOf(i), params.plantid, await sheetItems(call.files[0]), call.locale),
  editCollectorEs: async ({ params, ...i }, ctx) => {
    await ctx.services.collectorAdmin.edit(callerOf(i), params);
    return undefined;
  },
  restartCollector: ({ params, ...i }, ctx) => ctx.services.collectorAdmin.restart(callerOf(i), params.pn),
  resetCollector: ({ params, ...i }, ctx) => ctx.services.collectorAdmin.reset(callerOf(i), params.pn, params.confirm),
  unbindCollector: async ({ params, ...i }, ctx) => {
    await ctx.services.collectorAdmin.unbind(callerOf(i), params.pn, params.confirm);
    return undefined;
  },
  delCollector: async ({ params, ...i }, ctx) => {
    await ctx.services.collectorAdmin.remove(callerOf(i), params.pn);
    return undefined;
  },
  debugCollector: ({ params, ...i }, ctx) => ctx.services.collectorAdmin.debug(callerOf(i), params),
  webQueryCollectorLog: ({ params, ...i }, ctx) => ctx.services.collectorAdmin.log(callerOf(i), params),
  queryGprsCollector: ({ params, ...i }, ctx) => ctx.services.collectorAdmin.gprsList(callerOf(i), params),
  moveCollectorVendor: ({ params, ...i }, ctx) =>
    ctx.services.collectorAdmin.moveVendor(callerOf(i), params.pn, params.vendorUid),
  moveCollectorOwner: ({ params, ...i }, ctx) =>
    ctx.services.collectorAdmin.moveOwner(callerOf(i), params.pn, params.uid, params.plantid),
  queryCollectorDetail: ({ params, ...i }, ctx) => ctx.services.collectorAdmin.detail(callerOf(i), params.pn),
};
