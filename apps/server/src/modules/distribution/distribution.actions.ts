import fs from 'node:fs/promises';
import { ApiError } from '@sunwatch/protocol';
import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { readSheet, SheetFormatError, sheetKindOf } from '../../shared/sheets/sheet-reader.js';
import { SHEET_MAX_ROWS, type DistributeItem } from './distribution.service.js';

/** The rows of an uploaded sheet: column A PN, column B alias, no header; blank rows skipped. */
async function sheetItems(file: { filename: string; path: string } | undefined): Promise<DistributeItem[]> {
  if (!file) throw new ApiError(7, 'file');
  const kind = sheetKindOf(file.filename);
  if (!kind) throw new ApiError(6, 'file');
  let rows;
  try {
    rows = readSheet(new Uint8Array(await fs.readFile(file.path)), kind);
  } catch (e) {
    if (e instanceof SheetFormatError) throw new ApiError(6, 'file');
    throw e;
  }
  if (rows.length === 0) throw new ApiError(7, 'file');
  if (rows.length > SHEET_MAX_ROWS) throw new ApiError(13, 'file');
  return rows.map((r) => ({ row: r.row, pn: r.cells[0] ?? '', alias: r.cells[1] ?? '' }));
}

export const distributionHandlers: HandlerMap = {
  distAddCollector: async ({ params, ...i }, ctx) => {
    await ctx.services.distribution.addToStock(callerOf(i), params.Dpn, params.alias);
    return undefined;
  },
  distributeCollector: ({ params, call, ...i }, ctx) =>
    ctx.services.distribution.assignList(callerOf(i), params.uid, params.pn, params.alias, call.locale),
  distributeCollectorBySheet: async ({ params, call, ...i }, ctx) => {
    const items = await sheetItems(call.files[0]);
    return ctx.services.distribution.assign(callerOf(i), params.uid, items, call.locale);
  },
  distributeCollectorByOrder: ({ params, ...i }, ctx) =>
    ctx.services.distribution.assignOrder(callerOf(i), params.uid, params.orderNo),
};
