"""Runtime mode overhead counted in executed instructions, a measure a shared machine's load does not move.

    python benchmarks/runtime_instructions.py [--repeat K] [--only gpt,llama,train]

Runs the workloads of `runtime_overhead.py` (tiny GPT-2-style and llama-style generation, a small GPT
training step, on a batch of 2 x 64) once raw and once under `checked()`, in one process under callgrind, and
prints the instructions each takes and their ratio. Wall-clock ratios on a busy 2-core machine spread
by 10% or more between runs; instruction counts repeat to a fraction of a percent. They do not see
cache or memory effects, so the wall-clock benchmark stays the reference where the machine is quiet.

How the phases are cut: callgrind dumps its counters each time `time.sleep` is entered
(`--dump-before=time_sleep`); every phase runs one warm-up (the first calls of a signature take the
checked path's generic checker and fill its caches), sleeps, runs K times, and sleeps again.
Needs valgrind and a Python whose symbols name `time_sleep` (the usual builds).
"""
import argparse
import contextlib
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import callgrind

PHASES = ("gpt", "llama", "train")
TARGETS = {"gpt": 1.10, "llama": 1.10, "train": 1.05}


def workloads(names):
    """name -> a callable running one unit of that workload (models built here, seeded)."""
    import torch
    import runtime_overhead as bench

    torch.manual_seed(0)
    torch.set_num_threads(1)
    prompt = torch.randint(2000, (2, 16))
    made = {}
    if "gpt" in names:
        gpt = bench.TinyGPT().eval()
        made["gpt"] = lambda: gpt.generate(prompt, 32)
    if "llama" in names:
        llama = bench.TinyLlama().eval()
        made["llama"] = lambda: llama.generate(prompt, 32)
    if "train" in names:
        # a smaller batch than runtime_overhead's (8 x 128): callgrind runs BLAS kernels ~100x slower, and
        # less compute per checked call makes the ratio an upper bound of the larger step's
        model, batch = bench.TinyGPT().train(), torch.randint(2000, (2, 64))

        def step():
            model.zero_grad(set_to_none=True)
            model(batch, keep=16).backward()

        made["train"] = step
    return made


def child(names, repeat: int) -> None:
    """Under callgrind: each phase is warm-up, sleep (a dump), K runs, sleep (the measured dump)."""
    from gather_lint.runtime import checked

    for name, run in workloads(names).items():
        for column, context in (("raw", contextlib.nullcontext), ("checked", checked)):
            with context():
                run()
                time.sleep(0)
                print(f"PHASE {name} {column}", flush=True)
                for _ in range(repeat):
                    run()
                time.sleep(0)


def dumps(folder: Path):
    """Instruction totals of callgrind's numbered dumps, in the order written."""
    numbered = sorted(folder.glob("out.*"), key=lambda p: int(p.suffix[1:]))
    return [callgrind.summary(path) for path in numbered]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="measured runs of each workload (default 3)")
    parser.add_argument("--only", default=",".join(PHASES), help="comma-separated workloads (gpt,llama,train)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    names = [n for n in opts.only.split(",") if n]
    unknown = sorted(set(names) - set(PHASES))
    if unknown or opts.repeat < 1:
        parser.error(f"unknown workload {', '.join(unknown)}" if unknown else "--repeat must be at least 1")
    if opts.child:
        child(names, opts.repeat)
        return 0
    valgrind = callgrind.valgrind()
    if valgrind is None:
        print("runtime_instructions: valgrind is not installed; use runtime_overhead.py for wall-clock ratios",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        command = [valgrind, "--tool=callgrind", "--dump-before=time_sleep", f"--callgrind-out-file={tmp}/out",
                   sys.executable, __file__, "--child", "--repeat", str(opts.repeat), "--only", ",".join(names)]
        print(f"counting instructions under callgrind ({len(names)} workloads x 2 columns; this takes minutes)",
              flush=True)
        done = subprocess.run(command, capture_output=True, text=True)
        phases = re.findall(r"^PHASE (\w+) (\w+)$", done.stdout, re.M)
        totals = dumps(Path(tmp))
    # dumps alternate: what ran before a phase (warm-up), then the phase itself
    measured = totals[1::2]
    if done.returncode != 0 or len(measured) < len(phases) or None in measured[:len(phases)] or not phases:
        print(f"runtime_instructions: the callgrind run failed (exit {done.returncode}, {len(totals)} dumps for "
              f"{len(phases)} phases)\n{done.stderr[-2000:]}", file=sys.stderr)
        return 1
    counts = {(name, column): total / opts.repeat for (name, column), total in zip(phases, measured)}
    print(f"{'workload (instructions per run)':40} {'raw':>14} {'checked':>14} {'x raw':>7} {'target':>7}")
    for name in names:
        raw, checked = counts[(name, "raw")], counts[(name, "checked")]
        print(f"{name:40} {raw:>14,.0f} {checked:>14,.0f} {checked / raw:>6.3f}x {TARGETS[name]:>6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
