// The yardstick: a bare Fastify JSON route, no logging, same machine and run as the real endpoint.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ code: 200, success: true, data: { hello: 'world' }, msg: '操作成功' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('listening');
