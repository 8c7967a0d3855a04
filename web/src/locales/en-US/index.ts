import admin from "./admin";
import app from "./app";
import catalogue from "./catalogue";
import crud from "./crud";
import errors from "./errors";
import imageEditor from "./image-editor";
import layout from "./layout";
import menu from "./menu";
import pages from "./pages";
import settings from "./settings";
import stories from "./stories";
import upload from "./upload";
import urlIngest from "./url-ingest";
import user from "./user";

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
  ...upload,
  ...imageEditor,
};
