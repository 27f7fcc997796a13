import math

import torch


def split_heads(x, num_heads):
    b, t, d = x.shape
    return x.view(b, t, num_heads, d // num_heads).transpose(1, 2)


def heavy_hitter_indices(attn_probs, budget):
    importance = attn_probs.sum(dim=(1, 2))
    return importance.topk(budget, dim=-1).indices.sort(dim=-1).values


def compress_cache(keys, values, keep):
    index = keep[:, None, :, None].expand(-1, -1, -1, keys.size(-1))
    return keys.gather(2, index), values.gather(2, index)


def attend(q, k, v):
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
    return scores.softmax(dim=-1) @ v


def decode_step_with_budget(params, prompt, new_token, cfg):
    q_p, k_p, v_p = (split_heads(prompt @ w, cfg["heads"]) for w in params)
    probs = (q_p @ k_p.transpose(-1, -2) / math.sqrt(q_p.size(-1))).softmax(dim=-1)
    keep = heavy_hitter_indices(probs, cfg["budget"])
    k_small, v_small = compress_cache(k_p, v_p, keep)
    q_new = split_heads(new_token @ params[0], cfg["heads"])
    return attend(q_new, k_small, v_small), keep


def build(cfg):
    params = [torch.randn(cfg["dim"], cfg["dim"]) / math.sqrt(cfg["dim"]) for _ in range(3)]
    prompt = torch.randn(cfg["batch"], cfg["prompt_len"], cfg["dim"])
    new_token = torch.randn(cfg["batch"], 1, cfg["dim"])
    return params, prompt, new_token


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"batch": 2, "prompt_len": 24, "dim": 32, "heads": 4, "budget": 8}
    params, prompt, new_token = build(cfg)
    out, keep = decode_step_with_budget(params, prompt, new_token, cfg)
    k_p = split_heads(prompt @ params[1], cfg["heads"])
    v_p = split_heads(prompt @ params[2], cfg["heads"])
    q_new = split_heads(new_token @ params[0], cfg["heads"])
    ref = torch.zeros_like(q_new)
    for b in range(cfg["batch"]):
        for h in range(cfg["heads"]):
            ks, vs = k_p[b, h, keep[b]], v_p[b, h, keep[b]]
            w = (q_new[b, h] @ ks.T / math.sqrt(ks.size(-1))).softmax(-1)
            ref[b, h] = w @ vs
    print("per-head attention over kept tokens matches:", torch.allclose(out, ref, atol=1e-5))
    print("max |diff|:", (out - ref).abs().max().item())
