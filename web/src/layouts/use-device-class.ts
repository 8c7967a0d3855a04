import { useEffect, useState } from "react";
import { type DeviceClass, deviceClass } from "./device";

export function useDeviceClass(): DeviceClass {
  const [device, setDevice] = useState(() => deviceClass(window.innerWidth));
  useEffect(() => {
    const onResize = () => setDevice(deviceClass(window.innerWidth));
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return device;
}
