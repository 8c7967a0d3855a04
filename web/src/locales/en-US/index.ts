import admin from "./admin";
import app from "./app";
import catalogue from "./catalogue";
import cover from "./cover";
import crud from "./crud";
import embed from "./embed";
import errors from "./errors";
import imageEditor from "./image-editor";
import layout from "./layout";
import menu from "./menu";
import pages from "./pages";
import serverMessages from "./server-messages";
import settings from "./settings";
import stories from "./stories";
import upload from "./upload";
import urlIngest from "./url-ingest";
import user from "./user";
import viewerMedia from "./viewer-media";

export default {
  ...app,
  ...menu,
  ...pages,
  ...layout,
  ...errors,
  ...settings,
  ...crud,
  ...user,
  ...admin,
  ...catalogue,
  ...stories,
  ...urlIngest,
  ...serverMessages,
  ...upload,
  ...cover,
  ...embed,
  ...viewerMedia,
  ...imageEditor,
};
