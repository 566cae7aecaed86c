import { defineRoute } from '../route.ts';
import type * as S from './resource.schemas.ts';

/** Files and SMS beyond the CRUD routes (docs/outbox.md "SMS"); schemas in resource.schemas.ts. */

export const putFile = defineRoute<typeof S.putFile>()({
  method: 'POST',
  path: '/api/blade-resource/oss/endpoint/put-file',
  auth: 'user',
  bodyType: 'multipart',
  summary: 'Upload one file (multipart field "file"); answers its link and attachment id',
});

export const sendMessage = defineRoute<typeof S.sendMessage>()({
  method: 'POST',
  path: '/api/blade-resource/sms/endpoint/send-message',
  auth: 'user',
  permission: 'sms_send',
  summary:
    'Queue one SMS per phone through the outbox (a configuration by code, or the active one); answers the outbox ids',
});
