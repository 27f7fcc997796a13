import torch

CFG = {"vocab": 40000, "dim": 16, "k": 6, "lmbda": 0.25, "dstore_fp16": True}


def build_datastore(keys, next_tokens, cfg):
    store_dtype = torch.int32 if cfg["dstore_fp16"] else torch.int64
    return {"keys": keys.half() if cfg["dstore_fp16"] else keys,
            "vals": next_tokens.to(store_dtype)}


def knn_distribution(queries, dstore, cfg):
    dists = torch.cdist(queries.float(), dstore["keys"].float())
    top_d, top_i = dists.topk(cfg["k"], dim=-1, largest=False)
    weights = torch.softmax(-top_d, dim=-1)
    vals = dstore["vals"][top_i].long()
    p_knn = torch.zeros(queries.size(0), cfg["vocab"])
    rows = torch.arange(queries.size(0)).unsqueeze(1).expand_as(vals)
    p_knn.index_put_((rows, vals), weights, accumulate=True)
    return p_knn


def interpolate(lm_probs, p_knn, cfg):
    return cfg["lmbda"] * p_knn + (1 - cfg["lmbda"]) * lm_probs


if __name__ == "__main__":
    torch.manual_seed(0)
    n = 64
    keys = torch.randn(n, CFG["dim"])
    next_tokens = torch.randint(30000, CFG["vocab"], (n,))
    dstore = build_datastore(keys, next_tokens, CFG)
    queries = keys[:3] + 0.01 * torch.randn(3, CFG["dim"])
    targets = next_tokens[:3]
    lm_probs = torch.full((3, CFG["vocab"]), 1.0 / CFG["vocab"])
    p = interpolate(lm_probs, knn_distribution(queries, dstore, CFG), CFG)
    # loop reference
    q = queries.float()
    for b in range(3):
        d = [((q[b] - keys[j].half().float()) ** 2).sum().sqrt().item() for j in range(n)]
        order = sorted(range(n), key=lambda j: d[j])[: CFG["k"]]
        w = torch.softmax(-torch.tensor([d[j] for j in order]), dim=0)
        ref = [0.0] * CFG["vocab"]
        for wj, j in zip(w.tolist(), order):
            ref[int(next_tokens[j])] += wj
        t = int(targets[b])
        expect = CFG["lmbda"] * ref[t] + (1 - CFG["lmbda"]) / CFG["vocab"]
        assert abs(p[b, t].item() - expect) < 1e-4, (p[b, t].item(), expect)
    print("ok")
