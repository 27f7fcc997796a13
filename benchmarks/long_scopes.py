"""Lint time of one long scope: a generated function, and the same statements as a module-level script.

    python benchmarks/long_scopes.py [--sizes 1000 2000 4000 8000]

Generated and long functions exist in real code (and notebooks' top levels run as one scope), so the
analysis of a scope must grow with its statements, not with their square: a look back over the whole
scope at every statement (the last assignment of a name, the bindings around a line) makes an
8,000-line function take minutes. Each size is linted once, cold, by `gather-lint --no-cache FILE` in
its own process (start-up included); the table gives the wall seconds, their ratio to the smallest
size's (near the ratio of the sizes when the analysis is linear), and the CPU seconds, which a busy
machine moves less. Target: the 8,000-line function in under 5 s on 2 cores.

The code rebinds the gathered tensor between gathers (`x = x + 1`), so every site's facts come from
a rebinding a few lines up, and mixes the usual statements around them: subscripts, `.view`, an `if`,
a loop, `index_select`, `scatter_add`, an embedding lookup; one gather of rows misses an `.expand`,
so each round has a finding (GL005), and findings are what ask the analysis to look back.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# one round of statements; `{i}` keeps the names of each round apart where a fresh name is the point
_ROUND = [
    "x = x + 1",
    "picked = torch.gather(x, 0, idx.unsqueeze(1))",
    "first = x[:, 0]",
    "flat = picked.view(-1)",
    "if flat.sum() > 0:",
    "    shifted_{i} = x * 2",
    "else:",
    "    shifted_{i} = x - 1",
    "for step in range(3):",
    "    total = x.sum(1) + step",
    "rows = x.index_select(0, idx)",
    "spread = torch.zeros_like(x).scatter_add(0, idx.unsqueeze(1).expand(-1, 16), x)",
    "vectors = emb(tokens)",
    "y = torch.gather(x, 1, cols.unsqueeze(1))",
]


def body(lines: int):
    """About `lines` statements lines of rounds, unindented."""
    out, i = [], 0
    while len(out) < lines:
        out.extend(line.format(i=i) for line in _ROUND)
        i += 1
    return out[:lines] if not out[lines - 1].startswith(("if ", "else", "for ")) else out[:lines + 1]


def function_source(lines: int) -> str:
    head = ["import torch", "from torch import nn", "", "emb = nn.Embedding(100, 8)", "", "",
            "def run(x, idx, cols, tokens):", "    # x: [N, 16], idx: [N], cols: [N], tokens: [N]"]
    return "\n".join(head + ["    " + line for line in body(lines)] + ["    return x", ""])


def script_source(lines: int) -> str:
    head = ["import torch", "from torch import nn", "", "emb = nn.Embedding(100, 8)",
            "x = torch.randn(64, 16)", "idx = torch.randint(64, (64,))", "cols = torch.randint(16, (64,))", "tokens = torch.randint(100, (64,))"]
    return "\n".join(head + body(lines) + [""])


def lint_seconds(path: str):
    """(wall, CPU) seconds of one cold `gather-lint --no-cache` run of `path`, start-up included; the CPU
    seconds (None where the platform does not count them) move less on a busy machine."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cpu_before = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "gather_lint", "--no-cache", "--jobs", "1", path],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"gather-lint exited {proc.returncode} on {path}:\n{proc.stderr}")
    cpu_after = _children_cpu()
    return wall, (cpu_after - cpu_before if cpu_after is not None else None)


def _children_cpu():
    try:
        import resource
    except ImportError:  # not on Windows
        return None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000],
                        help="lines of the generated scope (default: 1000 2000 4000 8000)")
    args = parser.parse_args(argv)
    if any(size < 10 for size in args.sizes):
        parser.error("each size must be at least 10 lines")
    sizes = sorted(args.sizes)
    print(f"{'lines':>7}  {'function s':>10}  {'module script s':>15}  {'ratio to ' + str(sizes[0]):>14}"
          f"  {'function cpu s':>14}  {'script cpu s':>12}")
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            runs = []
            for kind, make in (("function", function_source), ("script", script_source)):
                path = os.path.join(tmp, f"{kind}_{size}.py")
                with open(path, "w") as f:
                    f.write(make(size))
                runs.append(lint_seconds(path))
            (function, function_cpu), (script, script_cpu) = runs
            first = first or (function, script)
            ratio = f"{function / first[0]:.1f} / {script / first[1]:.1f}"
            print(f"{size:>7}  {function:>10.2f}  {script:>15.2f}  {ratio:>14}  {_seconds(function_cpu):>14}"
                  f"  {_seconds(script_cpu):>12}", flush=True)
    return 0


def _seconds(cpu) -> str:
    return "-" if cpu is None else f"{cpu:.2f}"


if __name__ == "__main__":
    sys.exit(main())
