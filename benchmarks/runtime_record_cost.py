"""What one device-side index record costs, part by part, on the device given (the record is what the
runtime adds to a family call on an accelerator at the default `async` level; see device_records.py).

    python benchmarks/runtime_record_cost.py [--device cuda] [--calls 2000]

Each row is the wall time per call of the code shown, averaged over `--calls` calls, waiting for the
device once at the end (so a row is the host's cost to queue the work unless the device falls behind).
On the CPU the copy is synchronous and there is no event: run it on a GPU to see what matters there.
"""
import argparse

import torch

import runtime_overhead
from gather_lint.runtime import checked, device_records, location


def per_call(fn, calls: int) -> float:
    """Microseconds per call, waiting for the device once at the end (runtime_overhead.timed)."""
    return runtime_overhead.timed(fn, calls) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--calls", type=int, default=2000)
    opts = parser.parse_args()
    device = runtime_overhead.DEVICE = torch.device(opts.device)
    on_cuda = device.type == "cuda"
    x = torch.randn(64, 1000, device=device)
    idx = torch.randint(0, 1000, (64, 8), device=device)
    flat = idx.reshape(-1)
    host, rows = device_records._ring(on_cuda)
    low, low_pos = device_records._min(flat, 0)
    high, high_pos = device_records._max(flat, 0)
    pooled = [torch.cuda.Event() for _ in range(64)] if on_cuda else []
    counter = iter(range(10 ** 9))

    staging = torch.empty(64, 4, dtype=torch.long, device=device)

    def staged_copy(row):  # the stack kernel saved, four views made instead: no faster on an H100
        staged = staging.select(0, row)
        torch._C._VariableFunctions.min(flat, 0, out=(staged[0], staged[1]))
        torch._C._VariableFunctions.max(flat, 0, out=(staged[2], staged[3]))
        host.select(0, row).copy_(staged, non_blocking=on_cuda)

    def gather_checked():
        with checked():
            x.gather(1, idx)

    rows_shown = [
        ("x.gather(1, idx), unchecked", lambda: x.gather(1, idx)),
        ("min and max with positions", lambda: (device_records._min(flat, 0), device_records._max(flat, 0))),
        ("torch.aminmax (no positions)", lambda: torch.aminmax(flat)),
        ("stack of the four", lambda: torch.stack([low, low_pos, high, high_pos])),
        ("stack + non_blocking copy to the ring",
         lambda: host.select(0, next(counter) % 64).copy_(torch.stack([low, low_pos, high, high_pos]), non_blocking=on_cuda)),
        ("min and max with out= into a device row + copy of the row",
         lambda: staged_copy(next(counter) % 64)),
        ("new event, recorded", (lambda: torch.cuda.Event().record()) if on_cuda else None),
        ("pooled event, recorded", (lambda: pooled[next(counter) % 64].record()) if on_cuda else None),
        ("location.user_frame()", location.user_frame),
        ("device_records.record(...) whole, then read back as a poll would",
         lambda: (device_records.record(idx, 0, 1000, "gather", 1, wraps=False), device_records.discard())),
        ("x.gather(1, idx) inside checked() (one block per call)", gather_checked),
    ]
    print(f"device: {torch.cuda.get_device_name(device) if on_cuda else 'cpu'}, torch {torch.__version__}")
    print(f"{'part':58} {'us per call':>12}")
    with checked():  # the fast path's verdict cache and the ring exist before timing
        x.gather(1, idx)
    for name, fn in rows_shown:
        if fn is None:
            continue
        print(f"{name:58} {per_call(fn, opts.calls):12.2f}")
        device_records.discard()  # records queued by a row are not left for the next
    with checked():
        print(f"{'x.gather(1, idx), many calls in one checked() block':58} "
              f"{per_call(lambda: x.gather(1, idx), opts.calls):12.2f}")


if __name__ == "__main__":
    main()
