export default {
  "app.title": "媒资管理系统",
  "app.description": "面向新闻编辑部的数字媒资管理",
  "app.footer": "媒资管理系统 · 面向新闻编辑部的数字媒资管理",
  "app.loading": "加载中…",
};
