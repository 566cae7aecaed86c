import type { StreamFailure } from './streams.ts';

/** Texts of the live-video module (docs/devices.md "Live video"). */
export const videoTexts = {
  noSource: {
    zh: '该摄像机未配置视频流地址',
    en: 'This camera has no stream URL configured',
  },
  badSource: {
    zh: '视频流地址必须以 rtsp://、rtsps://、http:// 或 https:// 开头',
    en: 'The stream URL must start with rtsp://, rtsps://, http:// or https://',
  },
  disabled: { zh: '该摄像机已停用', en: 'This camera is disabled' },
  streamGone: {
    zh: '视频流已结束，请重新打开',
    en: 'The stream has ended; open it again',
  },
  // Several servers (docs/cluster.md "Live video across servers").
  streamRestarting: {
    zh: '视频流所在的服务器已停止，正在其他服务器上重新启动，请稍候',
    en: 'The server running this stream stopped; it is starting again on another server, please wait',
  },
  streamMoving: {
    zh: '视频流正在转移到其他服务器，请重试',
    en: 'The stream is moving to another server; try again',
  },
  tokenBad: { zh: '播放凭证无效', en: 'The playback token is not valid' },
  tokenExpired: { zh: '播放凭证已过期，请重新打开', en: 'The playback token has expired; open the stream again' },
  noPtz: { zh: '该摄像机不支持云台控制', en: 'This camera has no PTZ' },
  noOnvif: {
    zh: '该摄像机未配置 ONVIF 地址，无法控制云台',
    en: 'This camera has no ONVIF address; PTZ cannot be controlled',
  },
  ptzUnreachable: {
    zh: '云台控制失败：摄像机 ONVIF 服务无法连接',
    en: 'PTZ failed: the camera’s ONVIF service cannot be reached',
  },
  ptzRefused: {
    zh: '云台控制失败：摄像机拒绝了命令（请检查 ONVIF 账号密码）',
    en: 'PTZ failed: the camera refused the command (check the ONVIF user and password)',
  },
  ptzNoProfile: {
    zh: '云台控制失败：摄像机未提供带云台的媒体配置',
    en: 'PTZ failed: the camera offers no media profile with PTZ',
  },
  ptzSent: { zh: '云台命令已发送', en: 'PTZ command sent' },
  // A client account (an outside company) reads one text whatever the source did, so the server tells it nothing
  // about the network behind it (docs/devices.md "Camera addresses"); staff read the reason.
  cannotPlay: { zh: '无法播放该视频源', en: 'Cannot play this source' },
  cannotPtz: { zh: '无法控制该摄像机云台', en: 'Cannot control this camera’s PTZ' },
} as const;

/** Why a stream does not play, as the viewer reads it. */
export const failureTexts: Record<StreamFailure, { zh: string; en: string }> = {
  // The three limits of docs/devices.md "Fair shares", each named: the platform's cap (counted over every server,
  // docs/cluster.md "Live video across servers"), the tenant's share, the user's.
  full: {
    zh: '平台同时播放的视频流已达上限，请稍后重试',
    en: 'The platform’s limit of streams playing at once is reached; try again later',
  },
  fullTenant: {
    zh: '本租户同时播放的视频流已达上限，请关闭本租户的其他画面后重试',
    en: 'Your tenant’s limit of streams playing at once is reached; close another view of your tenant and try again',
  },
  fullUser: {
    zh: '您同时播放的视频流已达个人上限，请关闭您的其他画面后重试',
    en: 'You have reached your own limit of streams playing at once; close one of your views and try again',
  },
  ffmpegMissing: {
    zh: '服务器上没有可运行的 ffmpeg，无法播放视频（设置 ATRIUM_FFMPEG，或执行 npm ci 安装 @ffmpeg-installer/linux-x64）',
    en: 'The server has no ffmpeg it can run, so video cannot play (set ATRIUM_FFMPEG, or run npm ci to get @ffmpeg-installer/linux-x64)',
  },
  unreachable: {
    zh: '无法连接摄像机视频源（连接被拒绝或网络不可达）',
    en: 'The camera’s stream cannot be reached (connection refused or no route)',
  },
  unauthorized: {
    zh: '摄像机拒绝了视频流账号密码',
    en: 'The camera refused the stream’s user name or password',
  },
  notFound: { zh: '摄像机上不存在该视频流地址', en: 'The camera has no stream at this address' },
  timeout: {
    zh: '摄像机视频源无响应，请稍后重试',
    en: 'The camera’s stream did not answer in time; try again later',
  },
  noVideo: { zh: '摄像机视频源中没有视频', en: 'The camera’s stream carries no video' },
  dropped: {
    zh: '摄像机视频源已中断，多次重连失败',
    en: 'The camera’s stream dropped and could not be reconnected',
  },
  httpNeedsFfmpeg5: {
    zh: '本服务器的 ffmpeg 早于 5.0，无法拒绝 HTTP 重定向，因此不播放 HTTP 视频源：请改用 RTSP 地址，或将 ATRIUM_FFMPEG 设为 5.0 及以上版本',
    en: 'This server’s ffmpeg is older than 5.0 and cannot refuse HTTP redirects, so HTTP sources are not played: use an RTSP address, or set ATRIUM_FFMPEG to ffmpeg 5.0 or later',
  },
  failed: { zh: '视频流无法播放', en: 'The stream cannot be played' },
};
