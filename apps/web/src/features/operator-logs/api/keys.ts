/** Query keys of the operator's log pages (issue 14); each holds the wire parameters. */
export const operatorLogKeys = {
  all: ['operator-logs'] as const,
  collector: (p: object) => ['operator-logs', 'collector', p] as const,
  actions: (p: object) => ['operator-logs', 'actions', p] as const,
  retention: ['operator-logs', 'retention'] as const,
};
