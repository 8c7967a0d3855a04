import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { type LayoutSettings, loadSettings, saveSettings } from "./settings";

interface SettingsContextValue {
  settings: LayoutSettings;
  update: (patch: Partial<LayoutSettings>) => void;
}

const SettingsContext = createContext<SettingsContextValue | null>(null);

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState(() => loadSettings(localStorage));
  const update = useCallback((patch: Partial<LayoutSettings>) => {
    setSettings((current) => {
      const next = { ...current, ...patch };
      saveSettings(localStorage, next);
      return next;
    });
  }, []);
  const value = useMemo(() => ({ settings, update }), [settings, update]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsContextValue {
  const value = useContext(SettingsContext);
  if (!value) throw new Error("useSettings outside SettingsProvider");
  return value;
}
