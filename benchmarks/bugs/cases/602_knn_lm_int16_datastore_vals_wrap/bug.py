import torch

CFG = {"vocab": 40000, "dim": 16, "k": 6, "lmbda": 0.25, "dstore_fp16": True}


def build_datastore(keys, next_tokens, cfg):
    store_dtype = torch.int16 if cfg["dstore_fp16"] else torch.int64
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
    print("p(target):", p[torch.arange(3), targets].tolist())
