/** Query keys of the operator's log pages (issue 14); each holds the wire parameters. */
export const operatorLogKeys = {
  all: ['operator-logs'] as const,
  collector: (p: object) => ['operator-logs', 'collector', p] as const,
  actions: (p: object) => ['operator-logs', 'actions', p] as const,
  retention: ['operator-logs', 'retention'] as const,
};

/** Issue 16: the web error groups, a group's events, one event (wire parameters in the key). */
export const webErrorKeys = {
  all: ['operator-logs', 'web'] as const,
  groups: (p: object) => ['operator-logs', 'web', 'groups', p] as const,
  events: (p: object) => ['operator-logs', 'web', 'events', p] as const,
  event: (id: number) => ['operator-logs', 'web', 'event', id] as const,
};
