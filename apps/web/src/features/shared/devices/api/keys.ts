import type { DeviceTupleLike } from '../paths';

const tupleKey = (d: DeviceTupleLike) => [d.pn, Number(d.devcode), Number(d.devaddr), d.sn] as const;

/** Query keys of the devices feature. */
export const deviceKeys = {
  all: ['devices'] as const,
  list: (params: object) => [...deviceKeys.all, 'list', params] as const,
  device: (d: DeviceTupleLike) => [...deviceKeys.all, 'device', ...tupleKey(d)] as const,
  part: (d: DeviceTupleLike, part: string, extra?: unknown) => [...deviceKeys.device(d), part, extra ?? null] as const,
};
