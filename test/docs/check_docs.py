#!/usr/bin/env python3
"""Runs the examples of Markdown documents, like a doctest.

Usage:
  check_docs.py --build BUILD [--prefix PREFIX] [--cxx CXX] [--work DIR] DOC.md...
  check_docs.py --build BUILD --prefix PREFIX --fresh-install

The second form installs BUILD into PREFIX (`cmake --install`, after
emptying PREFIX), for the C++ blocks of the first.

Fenced code blocks are marked in their info string (the text after the
opening fence; GitHub only looks at its first word, the language):

  ```sh {run}          run the block as a bash script (`set -e -o pipefail`);
                       every command must succeed
  ```console {run}     a session: `$ command` lines, each followed by the
                       output it shows, which must match what it prints
                       (stdout and stderr together). A line `...` stands for
                       any number of lines, `...` inside a line for any text.
  ```c++ {compile}     a complete C++ translation unit: compiled and linked
                       against the installed package (PREFIX, through
                       pkg-config), so only `pt2ir/...` headers are found
  ```python {run}      a Python script run by the interpreter the pt2ir module
                       is built for (--python), with BUILD/python on
                       PYTHONPATH so `import pt2ir` finds the build's module;
                       it must exit 0 (its asserts are the checks). Skipped
                       when the build has no module (-DPT2IR_BUILD_PYTHON=OFF)
  ```LANG {file=PATH}  write the block to PATH in the scratch directory, for
                       later blocks (combines with compile)
  ```LANG {norun}      deliberately not run (the text next to it says why)

Attributes: `exit=N` makes every command of a run block (or the script) exit
with N instead of 0. `needs=PATH` skips a run block (counted as skipped) when
PATH does not exist in the scratch directory, for tools an optional part of
the build makes (`needs=build/bench/pt2-bench`: builds without benchmarks,
such as the sanitizer build, have none). A block whose language is a shell or C++ (sh, bash,
shell, console, c++, cpp, cxx) must carry one of run, compile, file or
norun: an unmarked one is a failure, so new examples cannot escape the check;
so is an unmarked block of another language with `$ ` prompt lines, and an
unmarked Python block that imports pt2ir.

The blocks of one document run in order, in a fresh scratch directory
(WORK/<document>) that holds copies of examples/ and test/corpus/ and a
`build` link to BUILD, with BUILD/tools first on PATH, HOME set to the
scratch directory and standard input empty. Each command runs in its own
bash. Exits 1 if any block fails, naming the document and line of each.

Python 3 standard library only.
"""

import argparse
import concurrent.futures
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys

SHELL_LANGS = {"sh", "bash", "shell", "console"}
CXX_LANGS = {"c++", "cpp", "cxx"}
PYTHON_LANGS = {"python", "py"}
KNOWN_ATTRS = {"run", "compile", "norun", "file", "exit", "needs"}
COMMAND_TIMEOUT = 600
FENCE = re.compile(r"^( *)(```+|~~~+)\s*([^`]*)$")


class Block:
    """One fenced code block of a document."""

    def __init__(self, doc, line, lang, attrs, text):
        self.doc = doc
        self.line = line  # 1-based line of the opening fence
        self.lang = lang
        self.attrs = attrs
        self.text = text

    def where(self):
        return "%s:%d" % (self.doc, self.line)


def parse_info(info):
    """Splits an info string into (language, {attr: value}) or raises."""
    info = info.strip()
    attrs = {}
    match = re.match(r"^([^\s{]*)\s*(?:\{([^}]*)\})?\s*$", info)
    if not match:
        raise ValueError("cannot read the info string '%s'" % info)
    lang = match.group(1).lower()
    for word in (match.group(2) or "").replace(",", " ").split():
        name, _, value = word.partition("=")
        if name not in KNOWN_ATTRS:
            raise ValueError("unknown attribute '%s' (known: %s)" % (name, ", ".join(sorted(KNOWN_ATTRS))))
        attrs[name] = value if value else True
    return lang, attrs


def parse_blocks(path, display):
    """The fenced blocks of a Markdown file, with fence indentation removed."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, errors = [], []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = len(match.group(1)), match.group(2), match.group(3)
        start = i
        body = []
        i += 1
        closing = re.compile(r"^ *" + re.escape(fence[0]) + "{%d,}\\s*$" % len(fence))
        while i < len(lines) and not closing.match(lines[i]):
            line = lines[i]
            body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
            i += 1
        if i == len(lines):
            errors.append("%s:%d: code block is never closed" % (display, start + 1))
        i += 1
        try:
            lang, attrs = parse_info(info)
        except ValueError as err:
            errors.append("%s:%d: %s" % (display, start + 1, err))
            continue
        blocks.append(Block(display, start + 1, lang, attrs, "\n".join(body) + "\n"))
    return blocks, errors


def split_session(block):
    """[(line, command, expected output lines)] of a `$ command` block, or
    None when the block has no prompt (a script)."""
    lines = block.text.rstrip("\n").split("\n")
    if not any(l.startswith("$ ") or l == "$" for l in lines):
        return None
    steps = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not (line.startswith("$ ") or line == "$"):
            if steps:
                steps[-1][2].append(line)
            elif line.strip():
                raise ValueError("line %d: output before the first `$ ` command" % (block.line + 1 + i))
            i += 1
            continue
        number = block.line + 1 + i
        command = line[2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        steps.append((number, command, []))
        i += 1
    return steps


def line_pattern(expected):
    parts = [re.escape(p) for p in expected.split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def trimmed(lines):
    """`lines` without trailing blanks, and without blank lines at the end."""
    lines = [l.rstrip() for l in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def output_matches(expected, actual):
    """Does `actual` (lines) match `expected` (lines with `...` wildcards)?"""
    exp = trimmed(expected)
    act = trimmed(actual)
    patterns = [None if l.strip() == "..." else line_pattern(l) for l in exp]
    # reach[j]: expected[:i] can match actual[:j].
    reach = [True] + [False] * len(act)
    for pattern in patterns:
        new = [False] * (len(act) + 1)
        if pattern is None:
            seen = False
            for j in range(len(act) + 1):
                seen = seen or reach[j]
                new[j] = seen
        else:
            for j in range(1, len(act) + 1):
                new[j] = reach[j - 1] and bool(pattern.match(act[j - 1]))
        reach = new
    return reach[len(act)]


class Runner:
    def __init__(self, args):
        self.build = os.path.abspath(args.build)
        self.source = os.path.abspath(args.source)
        self.prefix = os.path.abspath(args.prefix) if args.prefix else None
        self.cxx = args.cxx
        self.work = os.path.abspath(args.work)
        self.jobs = args.jobs
        self.python = args.python
        self.failures = []
        self.counts = {"run": 0, "compile": 0, "file": 0, "norun": 0, "skipped": 0}

    def fail(self, block_or_where, message):
        where = block_or_where if isinstance(block_or_where, str) else block_or_where.where()
        self.failures.append("%s: %s" % (where, message))

    # -- the scratch directory ------------------------------------------------
    def make_scratch(self, doc_name):
        scratch = os.path.join(self.work, re.sub(r"[^A-Za-z0-9_.-]", "_", doc_name))
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(os.path.join(scratch, "test"))
        shutil.copytree(os.path.join(self.source, "examples"), os.path.join(scratch, "examples"))
        shutil.copytree(os.path.join(self.source, "test", "corpus"), os.path.join(scratch, "test", "corpus"))
        os.symlink(self.build, os.path.join(scratch, "build"))
        return scratch

    def environment(self, scratch):
        env = dict(os.environ)
        env["PATH"] = os.pathsep.join([os.path.join(self.build, "tools"), env.get("PATH", "/usr/bin:/bin")])
        env["HOME"] = scratch
        env["LC_ALL"] = "C"
        env.pop("PT2IR_PROGRESS_DELAY_MS", None)
        return env

    def shell(self, script, scratch):
        """Runs `script` in bash; returns (exit status, output) or raises."""
        proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=scratch,
                              env=self.environment(scratch), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=COMMAND_TIMEOUT)
        return proc.returncode, proc.stdout.decode("utf-8", "replace")

    # -- blocks -----------------------------------------------------------------
    def write_file(self, block, scratch):
        path = block.attrs["file"]
        if path is True or os.path.isabs(path) or ".." in path.split("/"):
            self.fail(block, "file= needs a relative path inside the scratch directory, got '%s'" % path)
            return
        target = os.path.join(scratch, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as out:
            out.write(block.text)

    def run_block(self, block, scratch):
        want = int(block.attrs.get("exit", 0))
        try:
            steps = split_session(block)
        except ValueError as err:
            self.fail(block, str(err))
            return
        try:
            if steps is None:
                status, output = self.shell(block.text, scratch)
                if status != want:
                    self.fail(block, "the script exited with %d, expected %d; its output:\n%s"
                              % (status, want, indent(output)))
                return
            for number, command, expected in steps:
                status, output = self.shell(command, scratch)
                where = "%s:%d" % (block.doc, number)
                if status != want:
                    self.fail(where, "`%s` exited with %d, expected %d; its output:\n%s"
                              % (command, status, want, indent(output)))
                    return
                actual = output.split("\n")
                if not output_matches(expected, actual):
                    diff = difflib.unified_diff(trimmed(expected), trimmed(actual),
                                                "shown in the document", "printed", lineterm="")
                    self.fail(where, "`%s` printed something else than the document shows:\n%s"
                              % (command, indent("\n".join(diff))))
                    return
        except subprocess.TimeoutExpired:
            self.fail(block, "timed out after %d s" % COMMAND_TIMEOUT)

    def has_python_module(self):
        folder = os.path.join(self.build, "python")
        return os.path.isdir(folder) and any(
            f.startswith("pt2ir.") and f.endswith(".so") for f in os.listdir(folder))

    def run_python_block(self, block, scratch):
        want = int(block.attrs.get("exit", 0))
        env = self.environment(scratch)
        env["PYTHONPATH"] = os.path.join(self.build, "python")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        try:
            proc = subprocess.run([self.python, "-c", block.text], cwd=scratch, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.fail(block, "timed out after %d s" % COMMAND_TIMEOUT)
            return
        if proc.returncode != want:
            self.fail(block, "the Python block exited with %d, expected %d; its output:\n%s"
                      % (proc.returncode, want, indent(proc.stdout.decode("utf-8", "replace"))))

    def compile_block(self, block, scratch, index):
        """Compiles and links one snippet; returns an error message or None."""
        folder = os.path.join(scratch, ".snippets")
        os.makedirs(folder, exist_ok=True)
        base = os.path.join(folder, "snippet%d_line%d" % (index, block.line))
        with open(base + ".cpp", "w", encoding="utf-8") as out:
            out.write(block.text)
        env = self.environment(scratch)
        env["PKG_CONFIG_PATH"] = os.path.join(self.prefix, "lib", "pkgconfig")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "pt2ir"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if flags.returncode != 0:
            return "pkg-config failed:\n" + indent(flags.stdout.decode())
        flags = shlex.split(flags.stdout.decode())
        cflags = [f for f in flags if not f.startswith(("-L", "-l")) and not f.endswith((".a", ".so"))]
        warnings = ["-Wall", "-Wextra", "-Werror", "-Wno-unused-variable", "-Wno-unused-parameter",
                    "-Wno-unused-function", "-Wno-unused-but-set-variable"]
        compile_cmd = [self.cxx, "-std=c++17", "-O0", "-c", base + ".cpp", "-o", base + ".o"] + warnings + cflags
        proc = subprocess.run(compile_cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            return "does not compile against the installed package:\n" + indent(proc.stdout.decode())
        objects = [base + ".o"]
        if not re.search(r"\bint\s+main\s*\(", block.text):
            stub = os.path.join(folder, "stub_main.cpp")
            with open(stub, "w") as out:
                out.write("int main() { return 0; }\n")
            objects.append(stub)
        link_cmd = [self.cxx, "-std=c++17", "-O0"] + objects + ["-o", base] + flags
        proc = subprocess.run(link_cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            return "does not link against the installed package:\n" + indent(proc.stdout.decode())
        return None

    def check_document(self, path):
        display = os.path.relpath(os.path.abspath(path), self.source)
        if display.startswith(".."):
            display = path
        blocks, errors = parse_blocks(path, display)
        for error in errors:
            self.failures.append(error)
        scratch = self.make_scratch(display)
        compile_jobs = []
        for block in blocks:
            attrs = block.attrs
            marked = [a for a in ("run", "compile", "norun", "file") if a in attrs]
            if not marked:
                if block.lang in SHELL_LANGS | CXX_LANGS:
                    self.fail(block, "```%s block without a mark: add {run} (shell), {compile} (C++), "
                              "{file=PATH} or {norun} with the reason next to it (see docs/README.md)"
                              % block.lang)
                elif block.lang in PYTHON_LANGS and re.search(r"^\s*(import|from)\s+pt2ir\b", block.text, re.M):
                    self.fail(block, "```%s block that uses pt2ir without a mark: add {run}, or {norun} "
                              "with the reason next to it (see docs/README.md)" % block.lang)
                elif any(l.startswith("$ ") for l in block.text.split("\n")):
                    self.fail(block, "block without a mark that looks like a shell session (`$ ` lines): "
                              "make it ```console {run}, or mark it {norun} with the reason next to it")
                continue
            if "norun" in attrs:
                if len(marked) > 1:
                    self.fail(block, "norun does not combine with %s" % ", ".join(m for m in marked if m != "norun"))
                self.counts["norun"] += 1
                continue
            if "run" in attrs and block.lang in PYTHON_LANGS:
                if "file" in attrs:
                    self.counts["file"] += 1
                    self.write_file(block, scratch)
                if not self.has_python_module():
                    self.counts["skipped"] += 1
                    continue
                self.counts["run"] += 1
                self.run_python_block(block, scratch)
                continue
            if "run" in attrs and block.lang not in SHELL_LANGS:
                self.fail(block, "{run} applies to shell blocks (%s) and Python blocks, not '%s'"
                          % (", ".join(sorted(SHELL_LANGS)), block.lang))
                continue
            if "compile" in attrs and block.lang not in CXX_LANGS:
                self.fail(block, "{compile} applies to C++ blocks (%s), not '%s'" % (", ".join(sorted(CXX_LANGS)), block.lang))
                continue
            if "file" in attrs:
                self.counts["file"] += 1
                self.write_file(block, scratch)
            if "run" in attrs:
                needs = attrs.get("needs")
                if needs and not os.path.exists(os.path.join(scratch, str(needs))):
                    self.counts["skipped"] += 1
                    continue
                self.counts["run"] += 1
                self.run_block(block, scratch)
            if "compile" in attrs:
                self.counts["compile"] += 1
                compile_jobs.append(block)
        if compile_jobs and not self.prefix:
            self.fail(display, "C++ blocks need --prefix (an installed pt2ir)")
            return
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            results = list(pool.map(lambda item: self.compile_block(item[1], scratch, item[0]),
                                    enumerate(compile_jobs)))
        for block, result in zip(compile_jobs, results):
            if result:
                self.fail(block, result)


def indent(text):
    return "\n".join("    " + l for l in text.rstrip("\n").split("\n"))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("docs", nargs="*", help="Markdown files")
    parser.add_argument("--fresh-install", action="store_true",
                        help="empty PREFIX and install BUILD into it, then exit")
    parser.add_argument("--build", required=True, help="the build directory (its tools/ go on PATH)")
    parser.add_argument("--source", default=os.path.dirname(os.path.dirname(here)),
                        help="the source root (examples/ and test/corpus/ are copied from it)")
    parser.add_argument("--prefix", help="an installed pt2ir to compile C++ blocks against")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"), help="the C++ compiler")
    parser.add_argument("--work", help="where the scratch directories go (default BUILD/docs-test)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel C++ compiles")
    parser.add_argument("--python", default=os.environ.get("PT2IR_PYTHON") or
                        ("/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable),
                        help="the interpreter Python blocks run with (the one the module is built for)")
    args = parser.parse_args()
    if not args.work:
        args.work = os.path.join(args.build, "docs-test")
    if args.fresh_install:
        if not args.prefix:
            parser.error("--fresh-install needs --prefix")
        shutil.rmtree(args.prefix, ignore_errors=True)
        proc = subprocess.run(["cmake", "--install", args.build, "--prefix", args.prefix],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            print("FAIL: cmake --install %s --prefix %s:\n%s" % (args.build, args.prefix, indent(proc.stdout.decode())))
            return 1
        print("installed %s into %s" % (args.build, args.prefix))
        return 0
    if not args.docs:
        parser.error("no documents given")
    runner = Runner(args)
    for doc in args.docs:
        runner.check_document(doc)
    counts = runner.counts
    summary = "%s: %d run, %d compiled, %d files, %d not run" % (
        ", ".join(os.path.relpath(os.path.abspath(d), runner.source) for d in args.docs),
        counts["run"], counts["compile"], counts["file"], counts["norun"])
    if counts["skipped"]:
        summary += ", %d skipped (needs= missing, or no Python module)" % counts["skipped"]
    if runner.failures:
        def position(failure):
            match = re.match(r"(.*?):(\d+): ", failure)
            return (match.group(1), int(match.group(2))) if match else (failure, 0)
        for failure in sorted(runner.failures, key=position):
            print("FAIL: " + failure)
        print("%s; %d failed" % (summary, len(runner.failures)))
        return 1
    print("%s; all passed" % summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
