"""Runtime mode overhead on CPU: raw torch vs checked, for single calls and a training step.

    python benchmarks/runtime_overhead.py [--quick]

Prints one table. Ratios come from interleaved rounds in one run (the machine is shared and noisy:
compare ratios, not absolute times). Targets: end-to-end step <= 1.05x, expanded index <= 1.2x,
log-prob gather <= 2x.
"""
import argparse
import contextlib
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from gather_lint.runtime import checking
from gather_lint.runtime.patching import patched


def timed(fn, repeat: int) -> float:
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def compare(fn, repeat: int, rounds: int):
    """Median over interleaved rounds of raw, mode and patch timings (seconds per call)."""
    raw, mode, patch = [], [], []
    for _ in range(rounds):
        raw.append(timed(fn, repeat))
        with checking():
            mode.append(timed(fn, repeat))
        with patched():
            patch.append(timed(fn, repeat))
    return statistics.median(raw), statistics.median(mode), statistics.median(patch)


class Block(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.heads = heads

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, C)
        x = x + self.proj(y)
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab=2000, d=128, layers=2, heads=4, seq=128):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, vocab)
        self.score = nn.Linear(d, 1)

    def forward(self, ids, keep: int):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1)))
        for block in self.blocks:
            x = block(x)
        scores = self.score(x).squeeze(-1)  # [B, T]
        top = scores.topk(keep, dim=1).indices  # [B, K]
        kept = x.gather(1, top.unsqueeze(-1).expand(-1, -1, x.size(-1)))  # top-k gather
        logps = self.head(x[:, :-1]).log_softmax(-1)
        per_token = logps.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)  # per-token log-prob gather
        return per_token.mean() + kept.mean()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller log-prob case and fewer rounds")
    opts = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rounds = 3 if opts.quick else 7
    L = 512 if opts.quick else 2048
    cases = []
    log_probs = torch.randn(8, L, 32000)
    ids = torch.randint(32000, (8, L, 1))
    cases.append((f"log-probs [8, {L}, 32000], index [8, {L}, 1]", lambda: log_probs.gather(-1, ids), 20, "2x"))
    feats = torch.randn(50000, 256)
    idx = torch.randint(50000, (4096, 1)).expand(-1, 256)
    cases.append(("features [50000, 256], index [4096, 256] expanded", lambda: feats.gather(0, idx), 50, "1.2x"))
    tiny, tiny_idx = torch.randn(4, 10), torch.randint(10, (4, 1))
    cases.append(("tiny [4, 10], index [4, 1]", lambda: tiny.gather(1, tiny_idx), 2000, "-"))
    model = TinyGPT()
    batch = torch.randint(2000, (8, 128))

    def step():
        model.zero_grad(set_to_none=True)
        model(batch, keep=32).backward()

    cases.append(("TinyGPT forward+backward step", step, 5, "1.05x"))
    print(f"{'case':52} {'raw':>10} {'mode':>10} {'x raw':>7} {'patch':>10} {'x raw':>7} {'target':>7}")
    for name, fn, repeat, target in cases:
        raw, mode, patch = compare(fn, repeat, rounds)
        print(f"{name:52} {raw * 1e6:>8.1f}us {mode * 1e6:>8.1f}us {mode / raw:>6.2f}x "
              f"{patch * 1e6:>8.1f}us {patch / raw:>6.2f}x {target:>7}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
