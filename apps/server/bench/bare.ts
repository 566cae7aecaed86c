// The yardstick: a bare Fastify JSON route, no logging, same machine and run as the real endpoint.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ code: 200, success: true, data: { hello: 'world' }, msg: '操作成功' }));
// The same yardstick with a body the size of the admin's menu routes (≈ 12.8 kB), to separate payload cost from Atrium's own.
const big = JSON.stringify({ code: 200, success: true, data: 'x'.repeat(12_700), msg: '操作成功' });
app.get('/bare-big', async (_req, reply) => reply.type('application/json; charset=utf-8').send(big));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('listening');
