/** Query keys of the operator's protocol pages (typeCode, protocolBinding, protocolChange). */
export const protocolAdminKeys = {
  typeCodes: (p: object) => ['protocolAdmin', 'typeCodes', p] as const,
  bindings: (p: object) => ['protocolAdmin', 'bindings', p] as const,
  devices: (p: object) => ['protocolAdmin', 'devices', p] as const,
  changes: (p: object) => ['protocolAdmin', 'changes', p] as const,
};
