import { defineResource } from '../../resource/define.ts';
import { configCodeField, configStatusField, enableAction } from './enabled-config.ts';

/** Where a configuration stores: 1 the server's own disk, 2 an S3-compatible service (MinIO, AWS, Aliyun OSS, COS). */
export const OSS_CATEGORIES = [1, 2] as const;

const httpUrl = {
  regex: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+/?$',
  message: {
    zh: '地址必须以 http:// 或 https:// 开头，且只含主机和端口',
    en: 'The address must start with http:// or https:// and hold only a host and port',
  },
};

/**
 * 对象存储: a tenant's storage configurations; `enable` makes one the one every upload of the tenant goes through
 * (docs/system-api.md "Files"). Earlier files stay where they were stored. The secret key is sealed and never answered.
 */
export const oss = defineResource({
  code: 'oss',
  group: 'resource',
  base: '/api/blade-resource/oss',
  label: { zh: '对象存储', en: 'Object storage' },
  scope: 'tenant',
  dialogWidth: 760,
  fields: {
    ossCode: configCodeField,
    category: {
      kind: 'dict',
      dict: 'oss_category',
      keys: 'int',
      values: [...OSS_CATEGORIES],
      options: [
        { value: 1, label: { zh: '本地磁盘', en: 'Local disk' } },
        {
          value: 2,
          label: {
            zh: 'S3 兼容（MinIO、AWS、阿里云 OSS、腾讯云 COS）',
            en: 'S3-compatible (MinIO, AWS, Aliyun OSS, Tencent COS)',
          },
        },
      ],
      label: { zh: '分类', en: 'Category' },
      required: true,
      search: 'eq',
      sample: 1,
    },
    endpoint: {
      kind: 'text',
      label: { zh: '服务地址', en: 'Endpoint' },
      max: 255,
      pattern: httpUrl,
      sample: 'https://s3.example.com',
      ui: { showWhen: { field: 'category', in: [2] } },
    },
    bucketName: {
      kind: 'text',
      label: { zh: '存储桶', en: 'Bucket' },
      max: 63,
      pattern: {
        regex: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
        message: {
          zh: '存储桶名为 3–63 位小写字母、数字、. 或 -',
          en: 'A bucket name is 3–63 lower-case letters, digits, . or -',
        },
      },
      sample: 'atrium-files',
      ui: { showWhen: { field: 'category', in: [2] } },
    },
    region: {
      kind: 'text',
      label: { zh: '地域', en: 'Region' },
      max: 64,
      ui: { column: false, showWhen: { field: 'category', in: [2] } },
    },
    accessKey: {
      kind: 'text',
      label: { zh: 'AccessKey', en: 'Access key' },
      max: 128,
      ui: { column: false, showWhen: { field: 'category', in: [2] } },
    },
    // Sealed into another column by the module (docs/outbox.md "Secrets"); answered as the mask.
    secretKey: {
      kind: 'secret',
      column: false,
      mask: '******',
      label: { zh: 'SecretKey', en: 'Secret key' },
      max: 256,
      ui: {
        placeholder: { zh: '留空则不修改', en: 'Empty: unchanged' },
        showWhen: { field: 'category', in: [2] },
      },
    },
    maxSizeKb: {
      kind: 'int',
      label: { zh: '单个文件上限（KB）', en: 'Largest file (KB)' },
      noun: 'largest file size',
      min: 1,
      max: 2_097_151,
      default: 10240,
      ui: { width: 150 },
    },
    remark: { kind: 'text', label: { zh: '备注', en: 'Remark' }, max: 255, ui: { column: false } },
    status: configStatusField,
  },
  actions: {
    enable: enableAction({
      zh: '启用后本租户的上传都存到此配置，其他配置停用（已存的文件仍可读取），确定吗？',
      en: 'Every upload of this tenant will be stored through this configuration and the others are switched off (files stored earlier stay readable). Continue?',
    }),
  },
});
