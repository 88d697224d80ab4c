// Run a Python file in Pyodide under Node, with the course installed as the browser edition installs it.
//
//   node lite/node/run.mjs [--course DIR] [--lock DIR] script.py [args...]
//
// Pyodide and the wheels come from DIR given by --lock (default: lite/_site/pyodide, made by
// `python3 lite/build.py --pyodide`), through its pyodide-lock.json: the same files the site serves,
// and nothing from the network. The host's current folder is mounted at the same path and is the
// script's current folder, so the script can read the repository. With --course DIR, the
// react_course package is imported from DIR (a checkout) instead of the wheel, with the wheel's
// dependencies installed. The exit status is the script's (SystemExit), or 1 on an exception.
import { loadPyodide } from "pyodide";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let lockDir = path.join(here, "..", "_site", "pyodide");
let course = null;
while (args.length && args[0].startsWith("--")) {
  const flag = args.shift();
  if (flag === "--lock") lockDir = path.resolve(args.shift());
  else if (flag === "--course") course = path.resolve(args.shift());
  else {
    console.error(`unknown option ${flag}`);
    process.exit(2);
  }
}
if (!args.length) {
  console.error("usage: node lite/node/run.mjs [--course DIR] [--lock DIR] script.py [args...]");
  process.exit(2);
}

const pyodide = await loadPyodide({ indexURL: lockDir + path.sep, stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
const lock = pyodide._api.lockfile_packages;
const wanted = course ? [...lock["react-course"].depends, "ipython"] : ["react-course", "ipython"];
await pyodide.loadPackage(wanted, { messageCallback: () => {} });

function mount(folder) {
  pyodide.FS.mkdirTree(folder);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, folder);
}
const cwd = process.cwd();
mount(cwd);
if (course && !cwd.startsWith(course + path.sep) && cwd !== course) mount(course);
const script = path.resolve(args[0]);
if (!script.startsWith(cwd + path.sep)) mount(path.dirname(script));

pyodide.globals.set("_argv", pyodide.toPy([script, ...args.slice(1)]));
pyodide.globals.set("_course", course);
pyodide.globals.set("_cwd", cwd);
try {
  // SystemExit is caught in Python: raised out of Pyodide's event loop, it would escape this
  // try as an uncaught exception (Node then prints the whole of pyodide.asm.mjs and exits 1).
  const status = await pyodide.runPythonAsync(`
import os, runpy, sys
sys.argv = list(_argv)
os.chdir(_cwd)
if _course:
    sys.path.insert(0, _course)
sys.path.insert(0, os.path.dirname(sys.argv[0]))
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
    _status = 0
except SystemExit as _exit:
    _status = _exit.code if isinstance(_exit.code, int) else (0 if _exit.code is None else 1)
    if not isinstance(_exit.code, (int, type(None))):
        print(_exit.code, file=sys.stderr)
_status
`);
  process.exit(status);
} catch (error) {
  console.error(String(error.message || error));
  process.exit(1);
}
