import { useQuery } from '@tanstack/react-query';
import { statusOf, workApi } from '../api';

/** A leave request with its history; `missing` when the server answered 403 / 404 (not found, not a participant). */
export function useLeave(businessId: string) {
  const q = useQuery({
    queryKey: ['leave-detail', businessId],
    queryFn: () => workApi.leaveDetail(businessId),
    enabled: !!businessId,
  });
  const status = statusOf(q.error);
  return { ...q, missing: status === 403 || status === 404 };
}
