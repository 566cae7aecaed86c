import { defineResource } from '../../resource/define.ts';

/**
 * 摄像机网络 (docs/devices.md "Camera addresses"): the private networks (CIDR) where the tenant's cameras live. A
 * camera's stream or ONVIF address in a private range (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7, loopback …)
 * is accepted only inside one of them; public addresses need none. The server normalises the CIDR to its network.
 */
export const cameranetwork = defineResource({
  code: 'cameranetwork',
  group: 'device',
  base: '/api/blade-device-access/cameraNetwork',
  label: { zh: '摄像机网络', en: 'Camera networks' },
  scope: 'tenant',
  fields: {
    name: {
      kind: 'text',
      max: 64,
      label: { zh: '网络名称', en: 'Network name' },
      required: true,
      search: 'like',
      sort: true,
    },
    cidr: {
      kind: 'text',
      max: 64,
      pattern: {
        regex: '^[0-9A-Fa-f.:]+/[0-9]{1,3}$',
        message: {
          zh: '网段须为 CIDR 格式，如 10.20.0.0/16 或 fd00::/8',
          en: 'The network must be a CIDR such as 10.20.0.0/16 or fd00::/8',
        },
      },
      label: { zh: '网段（CIDR）', en: 'Network (CIDR)' },
      required: true,
      unique: { zh: '该网段已登记', en: 'This network is already listed' },
      search: 'like',
      sort: true,
      sample: '10.20.0.0/16',
    },
    remark: { kind: 'textarea', max: 255, label: { zh: '备注', en: 'Remark' } },
  },
});
