/**
 * Calls of the e-mail push subscriptions (protocol actions/notifications.ts): the caller's own
 * subscriptions, server-paged, and their writes; every write refreshes the list.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Catalogue, ResultOf } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { usePagedQuery } from '../../../components/list';
import { subscriptionParams, type SubscriptionFormValues } from '../subscription-form';
import { notificationKeys } from './keys';

export type SubscriptionRow = ResultOf<Catalogue['queryEmailPush']>['push'][number];

export function useSubscriptions(params: { page: number; pagesize: number }) {
  return usePagedQuery(notificationKeys.list(params), () => api.call('queryEmailPush', { ...params }));
}

function useRefresh() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: notificationKeys.all });
}

export function useSaveSubscription() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, values }: { id?: number; values: SubscriptionFormValues }) =>
      id ? api.call('editEmailPush', { id, ...subscriptionParams(values) }) : api.call('addEmailPush', subscriptionParams(values)),
    onSuccess: refresh,
  });
}

export function useDeleteSubscription() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => api.call('delEmailPush', { id }),
    onSuccess: refresh,
  });
}
