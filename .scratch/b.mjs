import { serveDocs } from '/work/wt/docs/scripts/lib/docs-server.mjs';
import { request } from 'node:http';
const { server, url } = await serveDocs('/work/wt/docs/generated/docs', 0);
const u = new URL(url);
const req = request({ hostname: u.hostname, port: u.port, path: '/', method: 'GET', headers: { 'content-type': 'text/plain' } }, (res) => { let t=''; res.on('data', c=>t+=c); res.on('end', ()=>{ console.log(res.statusCode, res.headers, t); server.close(); }); });
req.end('x'.repeat(1000));
