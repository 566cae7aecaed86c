import { and, eq, ne, sql } from 'drizzle-orm';
import { smtp } from '@atrium/contract/resources/resource/smtp';
import { bindResource, defineModule, resourceRoutes } from '../../platform/resource.ts';
import { outboxTexts as texts, enqueueEmail, smtpConfig } from '../outbox/index.ts';
import { seal } from '../../platform/secrets.ts';

/** 邮件配置 (docs/outbox.md "Email"): CRUD on the definition, `enable` and `test`. */
export default defineModule((app, s) => {
  resourceRoutes(
    app,
    s,
    bindResource(smtp, smtpConfig, {
      async beforeSave({ input }) {
        const password = input.password;
        return typeof password === 'string' && password !== '' ? { passwordSealed: seal(s, password) } : {};
      },
      actions: {
        async enable({ tx, auth, rows }) {
          await tx
            .update(smtpConfig)
            .set({ status: 1, updateUser: auth.userId, updateTime: s.now(), version: sql`${smtpConfig.version} + 1` })
            .where(
              and(eq(smtpConfig.tenantId, auth.tenantId), eq(smtpConfig.status, 2), ne(smtpConfig.id, rows[0].id)),
            );
        },
        // A test email through this server (enabled or not), queued like any other: its result shows in the outbox.
        async test({ tx, auth, rows, input }) {
          const row = rows[0];
          const id = await enqueueEmail(s, tx, {
            tenantId: auth.tenantId,
            to: String(input.to),
            subject: `${texts.testSubject.zh} / ${texts.testSubject.en}: ${String(row.name)}`,
            text: [texts.testBody.zh, texts.testBody.en]
              .map((t) => t.replace('{server}', `${String(row.host)}:${String(row.port)}`))
              .join('\n'),
            configId: row.id,
            userId: auth.userId,
          });
          return { data: id };
        },
      },
    }),
  );
});
