import type { ReactNode } from "react";
import { isAllowed } from "./access";
import { useCurrentUser } from "./session-context";

/** Spec section 6: `useAccess()('manage.userrole.user.add')` says whether the element shows. */
export function useAccess(): (check: string) => boolean {
  const user = useCurrentUser();
  return (check) => isAllowed(user, check);
}

/** Spec section 6, the action directive: `<Access action="manage.userrole.user.delete">…</Access>`. */
export function Access({ action, children }: { action: string; children: ReactNode }) {
  const allowed = useAccess();
  return allowed(action) ? children : null;
}
