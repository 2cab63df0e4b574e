/** Query keys of the sub-accounts feature (the owner's viewers). */
export const subaccountKeys = {
  all: ['subaccounts'] as const,
  list: (params: object) => [...subaccountKeys.all, 'list', params] as const,
  plants: () => [...subaccountKeys.all, 'plants'] as const,
};
