import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { pnList } from './telemetry-params.js';

/**
 * Datalogger (collector) reads (wire-protocol.md §6 "Dataloggers"). Another tenant's PN → err
 * 257, exactly as an unknown PN. Batch lookups take at most 256 PNs and fail fast (err 13 over
 * the limit, err 257 on the first PN the caller cannot see).
 */

export interface CollectorRow {
  pn: string;
  alias: string;
  /** Reporting period, s. */
  datFetch: number;
  /** Seconds east of UTC. */
  timezone: number;
  load: number;
  status: number;
  /** Owner account (0 when unbound). */
  uid: number;
  /** Plant (0 when unbound). */
  pid: number;
}

export interface WebCollectorRow {
  pn: string;
  alias: string;
  pid: number;
  pname: string;
  status: number;
  /** (sic) firmware version. */
  fireware: string;
  uid: number;
  usr: string;
  /** Signal 0..100 %. */
  signal: number;
  /** Devices behind it. */
  devices: number;
  datFetch: number;
  timezone: number;
  load: number;
  model: string;
  typeCode: string;
  /** Last heartbeat or frame ("" when never seen). */
  lts: string;
  gts: string;
}

export const webQueryCollectorsEs = defineAction({
  name: 'webQueryCollectorsEs',
  summary: 'Web datalogger list: pid/devtype filters, fuzzy pn/alias search, status filter; paged.',
  params: actionParams({
    pid: wireInt().optional(),
    devtype: wireInt().optional(),
    page: page(),
    pagesize: pageSize(),
    /** Raw status code (0 online, 1 offline, …). */
    status: wireInt().optional(),
    /** Web list filter: 0 all, n → status n−1. */
    statusFilter: wireInt().min(0).optional(),
    /** Fuzzy datalogger PN or alias. */
    search: z.string().max(64).optional(),
    pn: z.string().max(64).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; collector: WebCollectorRow[] }>(),
});

export const queryCollectors = defineAction({
  name: 'queryCollectors',
  summary: 'Dataloggers the caller may see, by plant, PN and status; paged.',
  params: actionParams({
    plantid: wireInt().optional(),
    pn: z.string().max(64).optional(),
    status: wireInt().optional(),
    page: page(),
    pagesize: pageSize(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    total: number;
    page: number;
    pagesize: number;
    collector: Array<CollectorRow & { type: string; fireware: string }>;
  }>(),
});

export const queryCollectorInfo = defineAction({
  name: 'queryCollectorInfo',
  summary: 'Datalogger records for up to 256 comma-separated PNs (fails fast).',
  params: actionParams({ pn: pnList() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ collector: CollectorRow[] }>(),
});

export const queryCollectorStatus = defineAction({
  name: 'queryCollectorStatus',
  summary: 'Status of up to 256 comma-separated PNs (fails fast).',
  params: actionParams({ pn: pnList() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ collector: Array<{ pn: string; status: number }> }>(),
});

export const queryCollectorDevices = defineAction({
  name: 'queryCollectorDevices',
  summary: 'Devices behind one datalogger; err 258 when it has none.',
  params: actionParams({ pn: z.string().min(1).max(64) }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    pn: string;
    dev: Array<{ sn: string; devcode: number; devaddr: number; alias: string; devtype: number; status: number }>;
  }>(),
});
