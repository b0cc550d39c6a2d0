// Runs napkin's xlwings Lite bundle in Pyodide under Node, offline, installed as Lite does.
//   node run.js BUNDLE_DIR CASES_JSON PLAN_JSON
// PLAN_JSON: {"requirements": [lines of requirements.txt], "probes": [lines]}.
// Loads Pyodide's core runtime from node_modules (no network); loads micropip and the
// packages in preload/ with pyodide.loadPackage (Pyodide's own, at its lockfile's versions:
// offline.py); serves index/ on localhost as a package index (PyPI's Simple JSON API) and
// installs the requirements from it with micropip; puts the xlwings stand-in and driver.py
// beside main.py and runs driver.run(). Then it installs each probe line on its own and
// records what micropip says. Prints two JSON lines on stdout: Node's record (timings,
// installed versions, probes), then driver.run()'s.
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const http = require("http");
const path = require("path");
const { loadPyodide } = require("pyodide");

const canonical = (name) => name.replace(/[-_.]+/g, "-").toLowerCase();

// index/ as a Simple JSON API: /simple/NAME/ lists its wheels, /files/WHEEL serves one
function serveIndex(dir) {
  const wheels = fs.readdirSync(dir).filter((n) => n.endsWith(".whl"));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    const simple = url.pathname.match(/^\/simple\/([^/]+)\/?$/);
    const file = url.pathname.match(/^\/files\/([^/]+\.whl)$/);
    if (simple) {
      const name = canonical(decodeURIComponent(simple[1]));
      const files = wheels.filter((w) => canonical(w.split("-")[0]) === name).map((w) => ({
        filename: w,
        url: `http://127.0.0.1:${server.address().port}/files/${w}`,
        hashes: {
          sha256: crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, w)))
            .digest("hex"),
        },
      }));
      if (files.length === 0) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/vnd.pypi.simple.v1+json" });
      res.end(JSON.stringify({ meta: { "api-version": "1.0" }, name, files }));
    } else if (file && wheels.includes(file[1])) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(fs.readFileSync(path.join(dir, file[1])));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function main() {
  const [bundleDir, casesPath, planPath] = process.argv.slice(2);
  if (!planPath) {
    console.error("usage: node run.js BUNDLE_DIR CASES_JSON PLAN_JSON");
    process.exit(2);
  }
  const plan = JSON.parse(fs.readFileSync(planPath, "utf8"));
  const log = [];
  const t0 = performance.now();
  const pyodide = await loadPyodide({
    indexURL: path.dirname(require.resolve("pyodide/package.json")) + path.sep,
    stdout: (s) => log.push(s),
    stderr: (s) => log.push(s),
  });
  const t1 = performance.now();

  const preloadDir = path.join(__dirname, "preload");
  const preload = fs.readdirSync(preloadDir).filter((n) => n.endsWith(".whl"));
  await pyodide.loadPackage(preload.map((n) => path.join(preloadDir, n)),
    { messageCallback: (m) => log.push(m), errorCallback: (m) => log.push(m) });
  const server = await serveIndex(path.join(__dirname, "index"));
  const indexUrl = `http://127.0.0.1:${server.address().port}/simple`;
  pyodide.globals.set("plan_json", JSON.stringify(plan));
  pyodide.globals.set("index_url", indexUrl);
  // micropip.install raises on the first line it cannot parse or satisfy: the run stops
  const before = await pyodide.runPythonAsync(`
import importlib.metadata as _md, json, micropip
_plan = json.loads(plan_json)
_versions = lambda: {d.metadata["Name"]: d.version for d in _md.distributions()}
_before = _versions()
await micropip.install(_plan["requirements"], index_urls=[index_url])
json.dumps(_before)
`);
  const installed = pyodide.runPython("json.dumps(_versions())");
  const t2 = performance.now();

  const FS = pyodide.FS;
  const home = "/home/pyodide";
  const copyTree = (src, dst) => {
    FS.mkdirTree(dst);
    for (const name of fs.readdirSync(src)) {
      const s = path.join(src, name);
      if (fs.statSync(s).isDirectory()) {
        if (name !== "__pycache__") copyTree(s, `${dst}/${name}`);
      } else {
        FS.writeFile(`${dst}/${name}`, fs.readFileSync(s));
      }
    }
  };
  copyTree(path.join(__dirname, "xlwings_standin"), `${home}/standin`);
  FS.writeFile(`${home}/main.py`, fs.readFileSync(path.join(bundleDir, "main.py")));
  FS.writeFile(`${home}/napkin_driver.py`, fs.readFileSync(path.join(__dirname, "driver.py")));
  FS.writeFile("/tmp/cases.json", fs.readFileSync(casesPath));
  const out = pyodide.runPython(`
import os, sys
os.chdir("${home}")
sys.path[:0] = ["${home}", "${home}/standin"]
import napkin_driver
napkin_driver.run(open("/tmp/cases.json").read())
`);
  const t3 = performance.now();
  // each probe line on its own, after the run: what micropip says of it
  const probes = await pyodide.runPythonAsync(`
_probes = {}
for _line in _plan["probes"]:
    try:
        await micropip.install([_line], index_urls=[index_url])
        _probes[_line] = "installed"
    except Exception as _e:
        _probes[_line] = f"{type(_e).__name__}: {_e}"
json.dumps(_probes)
`);
  server.close();
  // Python's JSON goes out verbatim (a JSON round trip through JS would turn 140.0
  // into 140); Node's own figures go on the line before it.
  const node = {
    pyodide_version: pyodide.version,
    preloaded: preload,
    before_install: JSON.parse(before),
    installed: JSON.parse(installed),
    probes: JSON.parse(probes),
    timings_ms: { load_pyodide: t1 - t0, install: t2 - t1, total: t3 - t0 },
    log,
  };
  process.stdout.write(JSON.stringify(node) + "\n" + out + "\n");
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
