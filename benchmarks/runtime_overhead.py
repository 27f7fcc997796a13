"""Runtime mode overhead: raw torch vs checked, in one run, printed as ratios.

    python benchmarks/runtime_overhead.py [--quick] [--device cuda]

Rows: greedy generation with tiny GPT-2-style and llama-style models (built here, random weights),
a small GPT training step (forward + backward with a top-k gather and a per-token log-prob gather),
and single family calls. Columns: `checked()` (patches only the family; the default) and, for
comparison, the same checks as a TorchFunctionMode over every torch call. Ratios come from
interleaved rounds in rotated order (the machine may be shared and noisy): times are each column's
fastest round, ratios the median of the per-round ratios.
Targets: generation <= 1.10x, training step <= 1.05x. With `--device cuda` every model and tensor
lives on the GPU and each timing waits for the device at its end (the checks themselves never wait).
"""
import argparse
import contextlib
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from gather_lint.runtime import GatherLintMode, checked


DEVICE = torch.device("cpu")


def _wait():
    if DEVICE.type == "cuda":
        torch.cuda.synchronize()


def timed(fn, repeat: int) -> float:
    fn()
    _wait()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    _wait()
    return (time.perf_counter() - start) / repeat


def compare(fn, repeat: int, rounds: int):
    """Interleaved rounds of raw, checked and mode timings (seconds per call), the order rotated each
    round so that none always runs first. Returns the fastest of each column and the median of the
    per-round ratios to raw: a ratio of two minima taken at different moments swung from 0.85x to
    1.2x on a shared machine; neighbours in one round see the same disturbance."""
    runs = {"raw": [], "checked": [], "mode": []}
    contexts = {"raw": contextlib.nullcontext, "checked": checked, "mode": GatherLintMode}
    order = list(runs)
    for r in range(rounds):
        for name in order[r % 3:] + order[:r % 3]:
            with contexts[name]():
                runs[name].append(timed(fn, repeat))
    ratios = {name: statistics.median(t / b for t, b in zip(runs[name], runs["raw"])) for name in ("checked", "mode")}
    return {name: min(times) for name, times in runs.items()}, ratios


# --- a GPT-2-style model -------------------------------------------------------------------------

class Block(nn.Module):
    def __init__(self, d: int, heads: int):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.heads = heads

    def forward(self, x, cache=None):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        if cache is not None:
            if cache:
                k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
            cache[:] = [k, v]
        y = F.scaled_dot_product_attention(q, k, v, is_causal=T > 1).transpose(1, 2).reshape(B, T, C)
        x = x + self.proj(y)
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab=2000, d=128, layers=2, heads=4, seq=256):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab)
        self.score = nn.Linear(d, 1)

    def hidden(self, ids, start=0, caches=None):
        x = self.tok(ids) + self.pos(torch.arange(start, start + ids.size(1), device=ids.device))
        for i, block in enumerate(self.blocks):
            x = block(x, caches[i] if caches is not None else None)
        return self.ln(x)

    def forward(self, ids, keep: int):
        x = self.hidden(ids)
        scores = self.score(x).squeeze(-1)  # [B, T]
        top = scores.topk(keep, dim=1).indices  # [B, K]
        kept = x.gather(1, top.unsqueeze(-1).expand(-1, -1, x.size(-1)))  # top-k gather
        logps = self.head(x[:, :-1]).log_softmax(-1)
        per_token = logps.gather(-1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)  # per-token log-prob gather
        return per_token.mean() + kept.mean()

    @torch.no_grad()
    def generate(self, ids, steps: int):
        caches = [[] for _ in self.blocks]
        logits = self.head(self.hidden(ids, 0, caches)[:, -1])
        for _ in range(steps):
            nxt = logits.argmax(-1, keepdim=True)
            ids = torch.cat([ids, nxt], 1)
            logits = self.head(self.hidden(nxt, ids.size(1) - 1, caches)[:, -1])
        return ids


# --- a llama-style model: RMSNorm, rotary positions, SwiGLU, grouped-query attention ------------

class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


def rotate(x, cos, sin):
    a, b = x[..., : x.size(-1) // 2], x[..., x.size(-1) // 2:]
    return x * cos + torch.cat([-b, a], -1) * sin


class LlamaBlock(nn.Module):
    def __init__(self, d, heads, kv_heads):
        super().__init__()
        self.h, self.kv, self.hd = heads, kv_heads, d // heads
        self.q, self.k = nn.Linear(d, d, bias=False), nn.Linear(d, kv_heads * self.hd, bias=False)
        self.v, self.o = nn.Linear(d, kv_heads * self.hd, bias=False), nn.Linear(d, d, bias=False)
        self.gate, self.up = nn.Linear(d, 2 * d, bias=False), nn.Linear(d, 2 * d, bias=False)
        self.down = nn.Linear(2 * d, d, bias=False)
        self.n1, self.n2 = RMSNorm(d), RMSNorm(d)

    def forward(self, x, cos, sin, cache):
        B, T, C = x.shape
        h = self.n1(x)
        q = rotate(self.q(h).view(B, T, self.h, self.hd).transpose(1, 2), cos, sin)
        k = rotate(self.k(h).view(B, T, self.kv, self.hd).transpose(1, 2), cos, sin)
        v = self.v(h).view(B, T, self.kv, self.hd).transpose(1, 2)
        if cache:
            k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
        cache[:] = [k, v]
        rep = self.h // self.kv
        k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=T > 1).transpose(1, 2).reshape(B, T, C)
        x = x + self.o(y)
        h = self.n2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class TinyLlama(nn.Module):
    def __init__(self, vocab=2000, d=128, layers=2, heads=4, kv_heads=2, seq=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(LlamaBlock(d, heads, kv_heads) for _ in range(layers))
        self.norm, self.head = RMSNorm(d), nn.Linear(d, vocab, bias=False)
        hd = d // heads
        freq = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
        angles = torch.outer(torch.arange(seq).float(), freq)
        self.register_buffer("cos", torch.cat([angles.cos()] * 2, -1))
        self.register_buffer("sin", torch.cat([angles.sin()] * 2, -1))

    def logits(self, ids, start, caches):
        x = self.embed(ids)
        pos = torch.arange(start, start + ids.size(1), device=ids.device)
        cos, sin = self.cos[pos], self.sin[pos]  # rotary tables indexed by position tensors
        for block, cache in zip(self.blocks, caches):
            x = block(x, cos, sin, cache)
        return self.head(self.norm(x))[:, -1]

    @torch.no_grad()
    def generate(self, ids, steps: int, top_k: int = 20):
        caches = [[] for _ in self.blocks]
        logits = self.logits(ids, 0, caches)
        gen = torch.Generator(ids.device).manual_seed(0)
        for _ in range(steps):
            values, candidates = logits.topk(top_k, dim=-1)  # top-k sampling
            choice = torch.multinomial(values.softmax(-1), 1, generator=gen)
            nxt = candidates.gather(-1, choice)
            ids = torch.cat([ids, nxt], 1)
            logits = self.logits(nxt, ids.size(1) - 1, caches)
        return ids


def per_call_costs(rounds: int):
    """Microseconds a checked call adds to the raw call, for the calls a model makes every step:
    fastest of interleaved rounds (raw, then checked) of many calls each."""
    x, idx = torch.randn(4, 10, device=DEVICE), torch.randint(10, (4, 1), device=DEVICE)
    table = nn.Embedding(2000, 64).to(DEVICE)
    ids, pos = torch.randint(2000, (2, 1), device=DEVICE), torch.arange(3, 4, device=DEVICE)
    calls = [("x.gather(1, idx)", lambda: x.gather(1, idx)), ("torch.gather(x, 1, idx)", lambda: torch.gather(x, 1, idx)),
             ("x.index_select(1, idx[:, 0])", lambda: x.index_select(1, idx[:, 0])),
             ("nn.Embedding(ids)", lambda: table(ids)), ("x[pos] (tensor key)", lambda: x[pos]),
             ("x[:, :5] (no tensor in the key)", lambda: x[:, :5]), ("x.topk(3, dim=1) (origin noted)", lambda: x.topk(3, dim=1))]
    print(f"\n{'per call':52} {'raw':>10} {'checked':>10} {'added':>9}")
    for name, fn in calls:
        raw, patched = [], []
        for _ in range(rounds):
            raw.append(timed(fn, 2000))
            with checked():
                patched.append(timed(fn, 2000))
        print(f"{name:52} {min(raw) * 1e6:>8.2f}us {min(patched) * 1e6:>8.2f}us {(min(patched) - min(raw)) * 1e6:>7.2f}us",
              flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="smaller cases and fewer rounds")
    parser.add_argument("--device", default="cpu", help="where models and tensors live (cpu, cuda)")
    opts = parser.parse_args()
    global DEVICE
    DEVICE = torch.device(opts.device)
    print(f"device: {torch.cuda.get_device_name(DEVICE) if DEVICE.type == 'cuda' else DEVICE}, torch {torch.__version__}")
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rounds = 5 if opts.quick else 9
    steps = 16 if opts.quick else 32
    cases = []
    gpt, llama = TinyGPT().eval().to(DEVICE), TinyLlama().eval().to(DEVICE)
    prompt = torch.randint(2000, (2, 16), device=DEVICE)
    cases.append((f"GPT-2-style generate {steps} tokens (greedy)", lambda: gpt.generate(prompt, steps), 4, 1.10))
    cases.append((f"llama-style generate {steps} tokens (top-k)", lambda: llama.generate(prompt, steps), 4, 1.10))
    model = TinyGPT().train().to(DEVICE)
    batch = torch.randint(2000, (8, 128), device=DEVICE)

    def step():
        model.zero_grad(set_to_none=True)
        model(batch, keep=32).backward()

    cases.append(("TinyGPT training step (forward+backward)", step, 3, 1.05))
    L = 512 if opts.quick else 2048
    log_probs = torch.randn(8, L, 32000, device=DEVICE)
    ids = torch.randint(32000, (8, L, 1), device=DEVICE)
    cases.append((f"gather log-probs [8, {L}, 32000], index [8, {L}, 1]", lambda: log_probs.gather(-1, ids), 10, 2.0))
    feats = torch.randn(50000, 256, device=DEVICE)
    idx = torch.randint(50000, (4096, 1), device=DEVICE).expand(-1, 256)
    cases.append(("gather [50000, 256], index [4096, 256] expanded", lambda: feats.gather(0, idx), 30, 1.2))
    tiny, tiny_idx = torch.randn(4, 10, device=DEVICE), torch.randint(10, (4, 1), device=DEVICE)
    cases.append(("gather tiny [4, 10], index [4, 1]", lambda: tiny.gather(1, tiny_idx), 2000, None))
    print(f"{'case':52} {'raw':>10} {'checked':>10} {'x raw':>6} {'mode':>10} {'x raw':>6} {'target':>7}")
    for name, fn, repeat, target in cases:
        fastest, ratio = compare(fn, repeat, rounds)
        target_text = f"{target:.2f}x" if target else "-"
        print(f"{name:52} {fastest['raw'] * 1e3:>8.2f}ms {fastest['checked'] * 1e3:>8.2f}ms {ratio['checked']:>5.2f}x "
              f"{fastest['mode'] * 1e3:>8.2f}ms {ratio['mode']:>5.2f}x {target_text:>7}", flush=True)
    per_call_costs(rounds)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
