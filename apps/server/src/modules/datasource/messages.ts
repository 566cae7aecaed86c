/** Texts of the data source module (the message catalogue's per-module part; docs/tenants.md "Data sources"). */
export const datasourceTexts = {
  /** `{address}`: the refused address. */
  addressRefused: {
    zh: '数据源地址 {address} 位于内网或保留网段，未在 ATRIUM_DATASOURCE_PRIVATE_NETWORKS 中允许',
    en: 'The data source address {address} is private or reserved and not allowed by ATRIUM_DATASOURCE_PRIVATE_NETWORKS',
  },
  /** `{reason}`: what the database answered (no password in it). */
  unreachable: { zh: '无法连接数据源：{reason}', en: 'Cannot connect to the data source: {reason}' },
  sealedLost: {
    zh: '数据源密码无法解密（签名密钥已更换），请重新填写密码',
    en: "The data source's password cannot be opened (the signing key changed): enter it again",
  },
  notFound: { zh: '数据源不存在', en: 'The data source does not exist' },
  inUse: {
    zh: '数据源仍有租户在使用，请先将租户迁回主库',
    en: 'Tenants still live in this data source: move them back to the main database first',
  },
};
