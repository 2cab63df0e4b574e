/** Query keys of the account management screens (users, groups, roles, control-field visibility). */
export const adminAccountKeys = {
  all: ['accounts-admin'] as const,
  users: (params: object) => [...adminAccountKeys.all, 'users', params] as const,
  search: (params: object) => [...adminAccountKeys.all, 'search', params] as const,
  groups: (params: object) => [...adminAccountKeys.all, 'groups', params] as const,
  roles: (params: object) => [...adminAccountKeys.all, 'roles', params] as const,
  ctrlFields: (devcode: number) => [...adminAccountKeys.all, 'ctrl', devcode] as const,
  plants: (params: object) => [...adminAccountKeys.all, 'plants', params] as const,
};
