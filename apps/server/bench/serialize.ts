// Serializing the user page answer (docs/resources.md "Answers"): JSON.stringify of the envelope (what routes without
// a response schema do) beside the serializer compiled from the user definition's record schema (what the page does
// now). Alone: `npx tsx bench/serialize.ts` in apps/server; prints per-call microseconds (median of 7 rounds).
import { user as userDef } from '@atrium/contract/resources/system/user';
import { recordSchema } from '../src/platform/resource.ts';
import { envelopeSchema, fjsCompiler, pageSchema } from '../src/platform/response.ts';

const output = {
  code: { type: ['string', 'null'] },
  avatar: { type: ['string', 'null'] },
  oauthId: { type: ['string', 'null'] },
  userExt: { type: ['string', 'null'] },
  mustChangePassword: { type: ['integer', 'null'] },
};
const row = (i: number) => ({
  id: String(9_000_000_000_000_000n + BigInt(i)),
  tenantId: '100050',
  code: null,
  userType: 1,
  account: `user${i}`,
  name: `用户${i}`,
  realName: `用户${i}`,
  avatar: '',
  email: `user${i}@example.com`,
  phone: '13800000000',
  birthday: '1990-01-02',
  sex: 1,
  deptId: '9000000000000000100',
  postId: '9000000000000000200',
  oauthId: null,
  mustChangePassword: 0,
  userExt: null,
  createUser: '1',
  createDept: '1',
  createTime: new Date(),
  updateUser: '1',
  updateTime: new Date(),
  status: 1,
  isDeleted: 0,
  version: 3,
  roleIds: ['9000000000000000300'],
  roleId: '9000000000000000300',
  roleName: '员工',
  deptName: '研发部',
  postName: '工程师',
});
const page = { records: Array.from({ length: 10 }, (_, i) => row(i)), total: 10001, size: 10, current: 1, pages: 1001 };
const answer = { code: 200, success: true, data: page, msg: '操作成功' };
const compiled = fjsCompiler({ schema: envelopeSchema(pageSchema(recordSchema(userDef, output))) });

function time(fn: () => string, n = 20000): number {
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - t0) / 1000 / n);
  }
  return rounds.sort((a, b) => a - b)[3];
}
time(() => JSON.stringify(answer), 2000);
time(() => compiled(answer), 2000);
const plain = time(() => JSON.stringify(answer));
const schema = time(() => compiled(answer));
console.log(
  `user page answer (10 records): ${JSON.stringify(answer).length} bytes, compiled ${compiled(answer).length} bytes`,
);
console.log(`JSON.stringify        ${plain.toFixed(2)} µs/call`);
console.log(`compiled from schema  ${schema.toFixed(2)} µs/call  (${(plain / schema).toFixed(2)}× faster)`);
