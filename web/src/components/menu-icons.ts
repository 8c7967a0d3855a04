/**
 * The icons the server's menus name, re-exported one by one (not `export *`) so that the bundle holds these and
 * not the whole icon set; menu-icon.tsx reads them by name.
 */
export {
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
