/** Texts of the notices module (the message catalogue's per-module part). */
export const noticeTexts = {
  emptyContent: {
    zh: '内容清理后为空：请输入可显示的文字或图片',
    en: 'Nothing of the content is left once cleaned: enter text or images that can be shown',
  },
  missing: { zh: '通知公告不存在', en: 'No such notice' },
  seen: { zh: '已全部标记为已读', en: 'Everything is marked as read' },
};
