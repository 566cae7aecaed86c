import { defineRoute } from '../route.ts';
import type * as S from './statistics.schemas.ts';

/**
 * 设备在线统计 and 接入排名 (docs/devices.md "Statistics"); schemas in statistics.schemas.ts. The screens' menu codes
 * are the permissions: `device_online` (the online statistics), `device_ranking` (the access ranking).
 */

export const onlinePage = defineRoute<typeof S.onlinePage>()({
  method: 'GET',
  path: '/api/deviceinOnlineStatusStatics/page',
  auth: 'user',
  permission: 'device_online',
  summary:
    'One row per child region of regionCode (total, online, offline, onlineRate), now or at the end of a past day',
});

export const onlineTrend = defineRoute<typeof S.onlineTrend>()({
  method: 'GET',
  path: '/api/deviceinOnlineStatusStatics/trend',
  auth: 'user',
  permission: 'device_online',
  summary: 'The online rate of a region day by day (1–90 days, default 30): the daily rollups and today',
});

export const deviceRanking = defineRoute<typeof S.deviceRanking>()({
  method: 'GET',
  path: '/api/home/deviceJoinRankingByRegionReport',
  auth: 'user',
  permission: 'device_ranking',
  summary: 'The child regions of regionCode ranked by devices (of a type)',
});

export const channelRanking = defineRoute<typeof S.channelRanking>()({
  method: 'GET',
  path: '/api/home/channelJoinRankingByRegionReport',
  auth: 'user',
  permission: 'device_ranking',
  summary: 'The child regions of regionCode ranked by the NVR channels joined',
});
