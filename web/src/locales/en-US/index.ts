import actions from "./actions";
import admin from "./admin";
import app from "./app";
import batchEdit from "./batch-edit";
import catalogue from "./catalogue";
import composite from "./composite";
import cover from "./cover";
import crud from "./crud";
import disk from "./disk";
import editInfo from "./edit-info";
import embed from "./embed";
import errors from "./errors";
import imageEditor from "./image-editor";
import layout from "./layout";
import libraryAdmin from "./library-admin";
import menu from "./menu";
import pages from "./pages";
import presets from "./presets";
import serverMessages from "./server-messages";
import settings from "./settings";
import shares from "./shares";
import storage from "./storage";
import stories from "./stories";
import templates from "./templates";
import upload from "./upload";
import urlIngest from "./url-ingest";
import user from "./user";
import videoEditor from "./video-editor";
import viewerMedia from "./viewer-media";

export default {
  ...app,
  ...menu,
  ...pages,
  ...layout,
  ...errors,
  ...settings,
  ...crud,
  ...editInfo,
  ...batchEdit,
  ...composite,
  ...user,
  ...admin,
  ...catalogue,
  ...libraryAdmin,
  ...storage,
  ...stories,
  ...urlIngest,
  ...serverMessages,
  ...upload,
  ...cover,
  ...embed,
  ...disk,
  ...viewerMedia,
  ...imageEditor,
  ...videoEditor,
  ...shares,
  ...presets,
  ...templates,
  ...actions,
};
