export default {
  "templates.title": "元数据模板",
  "templates.values": "取值",
  "templates.variables": "文本中可使用 {date}（今天）、{user}（您的姓名）和 {library}（媒资库），应用模板时自动填入。",
  "templates.properties": "自定义属性",
  "templates.properties.hint": "按媒资库中属性的键填写（署名、版权、使用条款、城市、国家等）",
  "templates.properties.add": "添加属性",
  "templates.properties.key": "键",
  "templates.properties.keyInvalid": "键以字母开头，只含字母、数字和 _",
  "templates.properties.value": "值",
  "templates.apply": "应用元数据模板",
};
