import type { ActionName, Catalogue, ExportFileRow, ReportFileRow, ResultOf } from '@sunwatch/protocol';
import { strFromU8, unzipSync } from 'fflate';
import type { CallerKey } from './fixture.js';
import type { WireParams } from './model.js';
import type { CellContext } from './entries.js';

/**
 * The file-producing actions of the catalogue and how the matrix gets their files: every action
 * whose answer is a file row (ExportFileRow / ReportFileRow) must have an entry here, the
 * compiler demands it (`satisfies` over the type below) and matrix.test.ts fails at run time for
 * any `export*` action without one. Each is run for real (no rollback) on a copy of the fixture by
 * tenant-A callers, the file is built by the server's own background job, downloaded through its
 * signed address, unpacked (an xlsx is a zip of XML) and searched for foreign markers.
 */

/** Catalogue actions whose `dat` is an export or report file row. */
export type FileAction = {
  [K in ActionName]: ResultOf<Catalogue[K]> extends ExportFileRow | ReportFileRow ? K : never;
}[ActionName];

export interface FileExport {
  /** The action that answers the signed download address of the file row's id. */
  urlAction: 'queryExportFileUrl' | 'queryReportFileUrl';
  /** Who runs it (tenant-A callers that see different parts of the tenant). */
  callers: readonly CallerKey[];
  /** Parameters of a call that builds a file with data in it. */
  params: (c: CellContext) => WireParams;
}

/** An action that answers a file row but builds no new kind of file, with the reason. */
export interface SameFile {
  sameFileAs: FileAction;
  reason: string;
}

function tuple(c: CellContext): WireParams {
  const d = c.fx.devices[c.caller === 'O2' ? 'A2' : 'A1']!;
  return { pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn };
}

function plantid(c: CellContext): WireParams {
  return { plantid: c.fx.plants[c.caller === 'O2' ? 'A2' : 'A1']!.pid };
}

/** The day before `day` (YYYY-MM-DD). */
function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

const CALLERS: readonly CallerKey[] = ['D1', 'O1', 'SA_device_manag'];

export const FILE_EXPORTS = {
  exportDeviceReport: {
    urlAction: 'queryExportFileUrl',
    callers: CALLERS,
    params: (c) => ({ ...tuple(c), sdate: dayBefore(c.day), edate: c.day }),
  },
  retryExportFile: {
    sameFileAs: 'exportDeviceReport',
    reason:
      "rebuilds a failed row of exportDeviceReport with the same builder, range and caller's access (re-checked: 258)",
  },
  exportPlantReport: {
    urlAction: 'queryReportFileUrl',
    callers: CALLERS,
    params: (c) => ({ ...plantid(c), type: 'total' }),
  },
  exportDeviceEnergyReport: {
    urlAction: 'queryReportFileUrl',
    callers: CALLERS,
    params: (c) => ({ ...tuple(c), type: 'daily', date: c.day }),
  },
  // The whole fleet list of the caller (no plant filter): the widest scope an export has. The
  // alarm-only sub-administrator downloads its own file too (the export history is personal since
  // session 26); the group account reads its member's fleet.
  exportPlantsWarning: {
    urlAction: 'queryReportFileUrl',
    callers: ['D1', 'O1', 'G1', 'SA_alarm_manag'],
    params: () => ({}),
  },
} as const satisfies Record<FileAction, FileExport | SameFile>;

/**
 * `export*` actions that answer their file inline (base64 in the call's answer) rather than as a
 * file row of a background job, with where their scoping (the file's content included) is tested.
 * Their access cells (roles, foreign callers) run in the matrix like every read action.
 */
export const INLINE_EXPORTS: Partial<Record<ActionName, { testedIn: string }>> = {
  exportMyRechargeOrders: {
    testedIn:
      "test/recharge-records: an owner's file holds exactly its own orders; a distributor's only its tree's (SQLite and PostgreSQL)",
  },
};

export function isSameFile(e: FileExport | SameFile): e is SameFile {
  return 'sameFileAs' in e;
}

/** The text of a downloaded file: every entry of a zip (xlsx) inflated, else the bytes as UTF-8. */
export function fileText(bytes: Uint8Array): string {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const parts = unzipSync(bytes);
    return Object.values(parts)
      .map((p) => strFromU8(p))
      .join('\n');
  }
  return strFromU8(bytes);
}
