import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";

/** A write whose success refreshes every query under `queryKey` (the mutation settles once they are asked again). */
export function useRefreshingWrite<A, R>(queryKey: QueryKey, write: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
