// Runs napkin's xlwings Lite bundle in Pyodide under Node, offline.
//   node run.js BUNDLE_DIR WHEELS_DIR CASES_JSON
// Loads Pyodide's core runtime from node_modules (no network), unpacks the pure-Python
// wheels into site-packages, puts the xlwings stand-in and driver.py beside main.py,
// runs driver.run() and prints two JSON lines on stdout: Node's timings, then driver.run()'s.
"use strict";
const fs = require("fs");
const path = require("path");
const { loadPyodide } = require("pyodide");

async function main() {
  const [bundleDir, wheelsDir, casesPath] = process.argv.slice(2);
  if (!casesPath) {
    console.error("usage: node run.js BUNDLE_DIR WHEELS_DIR CASES_JSON");
    process.exit(2);
  }
  const log = [];
  const t0 = performance.now();
  const pyodide = await loadPyodide({
    indexURL: path.dirname(require.resolve("pyodide/package.json")) + path.sep,
    stdout: (s) => log.push(s),
    stderr: (s) => log.push(s),
  });
  const t1 = performance.now();

  const FS = pyodide.FS;
  const home = "/home/pyodide";
  FS.mkdirTree("/tmp/wheels");
  for (const name of fs.readdirSync(wheelsDir).filter((n) => n.endsWith(".whl"))) {
    FS.writeFile(`/tmp/wheels/${name}`, fs.readFileSync(path.join(wheelsDir, name)));
  }
  pyodide.runPython(`
import os, site, sys, zipfile
target = site.getsitepackages()[0]
for name in sorted(os.listdir("/tmp/wheels")):
    with zipfile.ZipFile("/tmp/wheels/" + name) as z:
        z.extractall(target)
`);
  const t2 = performance.now();

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
  // Python's JSON goes out verbatim (a JSON round trip through JS would turn 140.0
  // into 140); Node's own figures go on the line before it.
  const node = {
    pyodide_version: pyodide.version,
    timings_ms: { load_pyodide: t1 - t0, unpack_wheels: t2 - t1, total: t3 - t0 },
    log,
  };
  process.stdout.write(JSON.stringify(node) + "\n" + out + "\n");
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
