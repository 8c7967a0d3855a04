import {
  AudioOutlined,
  BarChartOutlined,
  CloudOutlined,
  CloudServerOutlined,
  CloudUploadOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DownloadOutlined,
  ExperimentOutlined,
  FileImageOutlined,
  HddOutlined,
  IdcardOutlined,
  LockOutlined,
  PictureOutlined,
  ProfileOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SearchOutlined,
  SendOutlined,
  SettingOutlined,
  ShareAltOutlined,
  StarOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from "@ant-design/icons";
import type { ComponentType } from "react";

/**
 * The icons the server's menus name. An explicit map (not `import *`) keeps
 * the whole icon set out of the bundle; an unknown name renders no icon.
 */
const ICONS: Record<string, ComponentType> = {
  AudioOutlined,
  BarChartOutlined,
  CloudOutlined,
  CloudServerOutlined,
  CloudUploadOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DownloadOutlined,
  ExperimentOutlined,
  FileImageOutlined,
  HddOutlined,
  IdcardOutlined,
  LockOutlined,
  PictureOutlined,
  ProfileOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SearchOutlined,
  SendOutlined,
  SettingOutlined,
  ShareAltOutlined,
  StarOutlined,
  TeamOutlined,
  UnorderedListOutlined,
  UserOutlined,
  VideoCameraOutlined,
};

export function menuIcon(name: string | null | undefined) {
  const Icon = name ? ICONS[name] : undefined;
  return Icon ? <Icon /> : undefined;
}

export function hasMenuIcon(name: string): boolean {
  return name in ICONS;
}
