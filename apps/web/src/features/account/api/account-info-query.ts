import { useQuery } from '@tanstack/react-query';
import { api } from '../../../app/api';
import { accountKeys } from './keys';

/** The signed-in account (queryAccountInfo without uid). */
export function useAccountInfoQuery() {
  return useQuery({ queryKey: accountKeys.info(), queryFn: () => api.call('queryAccountInfo', {}) });
}
