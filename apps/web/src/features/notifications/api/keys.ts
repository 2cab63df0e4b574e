/** Query keys of the notifications feature (the caller's e-mail push subscriptions). */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (params: object) => [...notificationKeys.all, 'list', params] as const,
};
