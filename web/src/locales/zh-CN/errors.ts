import { CHUNK_LOAD_MESSAGE } from "../chunk-load";

export default {
  "error.title": "错误码：{{status}}",
  "error.403": "拒绝访问",
  "error.404": "请求错误，未找到该资源",
  "error.405": "请求方法未允许",
  "error.408": "请求超时",
  "error.500": "服务器错误",
  "error.501": "网络未实现",
  "error.502": "网络错误",
  "error.503": "服务不可用",
  "error.504": "网络超时",
  "error.505": "HTTP 版本不受支持",
  "error.other": "连接错误",
  "error.noResponse": "连接服务器失败",
  "error.unauthorized": "未授权",
  "error.unauthorized.description": "授权验证失败",
  "error.chunkLoad": CHUNK_LOAD_MESSAGE["zh-CN"],
  "exception.403": "抱歉，你无权访问该页面",
  "exception.404": "抱歉，你访问的页面不存在或仍在开发中",
  "exception.500": "抱歉，服务器出错了",
  "exception.backHome": "返回首页",
};
