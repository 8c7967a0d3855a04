import { useQuery } from "@tanstack/react-query";
import { notification } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router-dom";
import { ApiError } from "../api/http";
import { hasSession, isExemptPath } from "../api/session";
import { startSignIn } from "../api/sign-in";
import { PageLoading } from "../components/page-loading";
import { StatusNotice } from "../components/status-notice";
import { errorPageFor } from "../router/menu-routes";
import { fetchCurrentUser, RolesError } from "./current-user";
import { CurrentUserProvider } from "./session-context";

export const CURRENT_USER_QUERY = ["current-user"] as const;

/** Spec section 4, step 1: no session on a route that needs one → the authorize address. */
function SignInRedirect({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    startSignIn(returnTo).catch(() => setFailed(true));
  }, [returnTo]);
  if (failed)
    return <StatusNotice status="error" title={t("user.signIn.unavailable")} subTitle={t("error.noResponse")} />;
  return <PageLoading />;
}

/** Spec section 4, step 4: load the user (and with it the role) before any page that needs a session. */
function CurrentUserBoundary({ children, returnTo }: { children: ReactNode; returnTo: string }) {
  const user = useQuery({
    queryKey: CURRENT_USER_QUERY,
    queryFn: fetchCurrentUser,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (user.error instanceof RolesError) notification.error({ message: user.error.message });
  }, [user.error]);
  if (user.isPending) return <PageLoading />;
  if (user.isError) {
    // A role without permissions is an access problem; other failures go to the page of their status.
    const status = user.error instanceof RolesError ? 403 : user.error instanceof ApiError ? user.error.status : null;
    if (status === 401) {
      // An ended session reloads into sign-in by itself (endSession). Another 401 reloads only when this
      // page still held tokens; when another tab removed them first, nothing would: start the sign-in here.
      if (user.error instanceof ApiError && user.error.code === "session_expired") return <PageLoading />;
      return <SignInRedirect returnTo={returnTo} />;
    }
    return <Navigate to={errorPageFor(status)} replace />;
  }
  return <CurrentUserProvider user={user.data}>{children}</CurrentUserProvider>;
}

/**
 * Guards every route except those exempt from login (spec section 2): without
 * a session the browser goes to sign-in, with one the current user is loaded
 * first, so the menus and pages below always run signed in.
 */
export function SessionGate({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (isExemptPath(location.pathname)) return <>{children}</>;
  const returnTo = location.pathname + location.search + location.hash;
  if (!hasSession()) return <SignInRedirect returnTo={returnTo} />;
  return <CurrentUserBoundary returnTo={returnTo}>{children}</CurrentUserBoundary>;
}
