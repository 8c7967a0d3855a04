export default {
  // 可嵌入页面 /source/ismpsource 与 /source/ismpupload（issue 7，docs/embedding.md）。
  "embed.configFailed": "无法加载嵌入设置。",
  "embed.refused": "此页面只能由允许的系统嵌入",
  "embed.refused.missing": "嵌入系统未提供其来源（?origin=…）。",
  "embed.refused.invalid": "{{origin}} 不是有效的来源（只含协议、主机和端口）。",
  "embed.refused.not-allowed": "{{origin}} 不在允许嵌入此页面的系统之列。",
  "embed.signIn.title": "请登录后选择素材",
  "embed.signIn.hint": "请在弹出的窗口中登录；登录后此页面将继续。",
  "embed.signIn.action": "登录",
  "embed.signIn.reload": "刷新",
  "embed.library": "素材库",
  "embed.confirm": "确定",
  "embed.sent": "已发送 {{count}} 条素材",
  "embed.noOpener": "没有可发送的嵌入系统。",
};
