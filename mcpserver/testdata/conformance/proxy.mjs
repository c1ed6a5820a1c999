// A loopback proxy that adds the bearer token to every request, for the conformance
// suite, which cannot send one: node proxy.mjs LISTEN_PORT TARGET_URL TOKEN
import http from "node:http";

const [port, target, token] = process.argv.slice(2);
const t = new URL(target);
http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}`, host: t.host };
  const up = http.request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers }, (r) => {
    res.writeHead(r.statusCode, r.headers);
    r.pipe(res);
  });
  up.on("error", (e) => { res.writeHead(502); res.end(String(e)); });
  req.pipe(up);
  res.on("close", () => up.destroy());
}).listen(Number(port), "127.0.0.1");
