import math

import torch


def sparse_attention_golden(q, kv, topk_idxs, scale):
    """Reference sparse attention used to check the device kernel.

    Args:
        q: query tensor of shape (batch, seq, dim).
        kv: key/value pool of shape (batch, pool, dim).
        topk_idxs: selected pool slots of shape (batch, seq, topk); the indexer may
            select the same slot more than once.
        scale: softmax scale.
    Returns:
        Tensor of shape (batch, seq, dim).
    """
    b, s, k = topk_idxs.shape
    d = kv.shape[-1]
    gathered = torch.gather(
        kv.unsqueeze(1).expand(b, s, kv.shape[1], d), 2, topk_idxs.unsqueeze(-1).expand(b, s, k, d)
    )  # (batch, seq, topk, dim): duplicates kept
    scores = torch.einsum("bsd,bskd->bsk", q, gathered) * scale
    probs = torch.softmax(scores, dim=-1)
    return torch.einsum("bsk,bskd->bsd", probs, gathered)


def sparse_attention_kernel(q, kv, topk_idxs, scale):
    """Stand-in for the device kernel: attends to each listed slot in turn."""
    b, s, d = q.shape
    out = torch.zeros(b, s, d)
    for bi in range(b):
        for si in range(s):
            keys = kv[bi, topk_idxs[bi, si]]
            w = torch.softmax(keys @ q[bi, si] * scale, dim=0)
            out[bi, si] = w @ keys
    return out


def make_inputs(cfg, gen):
    q = torch.randn(cfg["batch"], cfg["seq"], cfg["dim"], generator=gen)
    kv = torch.randn(cfg["batch"], cfg["pool"], cfg["dim"], generator=gen)
    topk_idxs = torch.randint(0, cfg["pool"], (cfg["batch"], cfg["seq"], cfg["topk"]), generator=gen)
    return q, kv, topk_idxs


if __name__ == "__main__":
    cfg = {"batch": 2, "seq": 4, "pool": 16, "dim": 8, "topk": 6}
    gen = torch.Generator().manual_seed(0)
    q, kv, topk_idxs = make_inputs(cfg, gen)
    scale = 1.0 / math.sqrt(cfg["dim"])
    golden = sparse_attention_golden(q, kv, topk_idxs, scale)
    out = sparse_attention_kernel(q, kv, topk_idxs, scale)
    assert (topk_idxs.sort(-1).values[..., 1:] == topk_idxs.sort(-1).values[..., :-1]).any()
    assert torch.allclose(out, golden, atol=1e-5)
    print("ok")
