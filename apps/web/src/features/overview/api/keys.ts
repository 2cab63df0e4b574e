/** Query keys of the overview feature. */
export const overviewKeys = {
  all: ['overview'] as const,
  fleet: () => [...overviewKeys.all, 'fleet'] as const,
};
