import antd from "antd/es/locale/zh_CN";
import "dayjs/locale/zh-cn";
import type { LanguagePack } from "../pack";
import strings from ".";

/** Everything zh-CN brings, in one chunk loaded when the language is in use. */
const pack: LanguagePack = { strings, antd, dayjs: "zh-cn" };
export default pack;
