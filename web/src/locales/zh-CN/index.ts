import admin from "./admin";
import app from "./app";
import catalogue from "./catalogue";
import crud from "./crud";
import errors from "./errors";
import layout from "./layout";
import menu from "./menu";
import pages from "./pages";
import serverMessages from "./server-messages";
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
  ...serverMessages,
  ...upload,
};
