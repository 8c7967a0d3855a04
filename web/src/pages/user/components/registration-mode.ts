import { useEffect, useState } from "react";
import { loadAuthConfig } from "../../../api/sign-in";

export type RegistrationMode = "off" | "approval" | "open";

/**
 * The embedded sign-in's self-registration as the administrator set it
 * (GET /auth/config); undefined while loading, or with an external issuer.
 */
export function useRegistrationMode(): RegistrationMode | undefined {
  const [mode, setMode] = useState<RegistrationMode | undefined>();
  useEffect(() => {
    let live = true;
    loadAuthConfig()
      .then((config) => {
        if (live) setMode(config.registration);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return mode;
}
