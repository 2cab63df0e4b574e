/** Query keys of the operator's protocol tools (issue 14); each holds the wire parameters. */
import type { Catalogue, ParsedParamsOf } from '@sunwatch/protocol';

type P<N extends keyof Catalogue> = Partial<ParsedParamsOf<Catalogue[N]>>;

export const protocolToolKeys = {
  all: ['protocol-tools'] as const,
  definitions: (p: P<'webQueryProtocolDefinitions'>) => ['protocol-tools', 'definitions', p] as const,
  fields: (p: P<'webQueryProtocolFields'>) => ['protocol-tools', 'fields', p] as const,
  controls: (p: P<'webQueryProtocolControls'>) => ['protocol-tools', 'controls', p] as const,
  faults: (p: P<'webQueryProtocolFaults'>) => ['protocol-tools', 'faults', p] as const,
  stored: (p: P<'webQueryDeviceRawData'>) => ['protocol-tools', 'stored', p] as const,
  deviceFunctions: (p: P<'webQueryDeviceFunctions'>) => ['protocol-tools', 'device-functions', p] as const,
  typeFunctions: (p: P<'webQueryDataloggerTypeFunctions'>) => ['protocol-tools', 'type-functions', p] as const,
};
