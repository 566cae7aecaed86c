/** Texts of the sub-domain screen (i18n keys under `subdomainPage`), in both languages. */
export const subdomainPageTexts = {
  zh: {
    apply: '申请子域名',
    name: '子域名',
    namePlaceholder: '3–32 位小写字母、数字或 -，以字母开头',
    account: '客户账号',
    accountPlaceholder: '客户账号登录时可留空',
    checking: '正在检查…',
    submit: '提交申请',
    cancel: '取消',
    fullDomain: '完整域名：{{domain}}',
  },
  en: {
    apply: 'Apply for a sub-domain',
    name: 'Sub-domain',
    namePlaceholder: '3–32 lower-case letters, digits or -, starting with a letter',
    account: 'Client account',
    accountPlaceholder: 'Empty when signed in as the client',
    checking: 'Checking…',
    submit: 'Submit application',
    cancel: 'Cancel',
    fullDomain: 'Full domain: {{domain}}',
  },
};
