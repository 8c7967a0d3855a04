// The ES module: antd/locale/* are CommonJS re-exports that drag antd/lib copies into the bundle.
import antd from "antd/es/locale/en_US";
import type { LanguagePack } from "../pack";
import strings from ".";

/** Everything en-US brings, in one chunk loaded when the language is in use (dayjs has English built in). */
const pack: LanguagePack = { strings, antd, dayjs: "en" };
export default pack;
