import { createContext, type ReactNode, useContext } from "react";
import type { CurrentUser } from "./current-user";

const CurrentUserContext = createContext<CurrentUser | null>(null);

export function CurrentUserProvider({ user, children }: { user: CurrentUser; children: ReactNode }) {
  return <CurrentUserContext.Provider value={user}>{children}</CurrentUserContext.Provider>;
}

/** The signed-in user; null on the pages that need no session. */
export function useCurrentUser(): CurrentUser | null {
  return useContext(CurrentUserContext);
}
