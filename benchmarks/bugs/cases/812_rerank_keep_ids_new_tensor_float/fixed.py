import torch
import torch.nn.functional as F

CONFIG = {"num_candidates": 12, "dim": 8, "dedup_threshold": 0.9, "top_n": 4}


def near_duplicate_filter(emb, threshold):
    sims = F.normalize(emb, dim=-1) @ F.normalize(emb, dim=-1).T
    keep = []
    for i in range(emb.shape[0]):
        if all(sims[i, j] < threshold for j in keep):
            keep.append(i)
    return keep


class Reranker:
    def __init__(self, cfg):
        self.cfg = cfg
        self.proj = torch.nn.Linear(cfg["dim"], 1)

    def __call__(self, query, cand_emb):
        keep = near_duplicate_filter(cand_emb, self.cfg["dedup_threshold"])
        keep_idx = torch.tensor(keep, dtype=torch.long, device=cand_emb.device)
        pool = cand_emb.index_select(0, keep_idx)
        scores = (pool * query).sum(-1) + self.proj(pool).squeeze(-1)
        order = scores.argsort(descending=True)[: self.cfg["top_n"]]
        return keep_idx[order], scores[order]


def load_candidates(cfg, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.randn(cfg["num_candidates"] // 2, cfg["dim"], generator=g)
    noisy = base + 0.01 * torch.randn(base.shape, generator=g)
    return torch.cat([base, noisy]), torch.randn(cfg["dim"], generator=g)


if __name__ == "__main__":
    torch.manual_seed(0)
    cands, query = load_candidates(CONFIG)
    rr = Reranker(CONFIG)
    with torch.no_grad():
        ids, scores = rr(query, cands)
        keep = near_duplicate_filter(cands, CONFIG["dedup_threshold"])
        ref = []
        for i in keep:
            s = sum(cands[i, d].item() * query[d].item() for d in range(CONFIG["dim"]))
            ref.append((s + rr.proj(cands[i]).item(), i))
        ref.sort(key=lambda t: -t[0])
        ref = ref[: CONFIG["top_n"]]
    assert ids.dtype == torch.long and ids.tolist() == [i for _, i in ref], (ids, ref)
    assert torch.allclose(scores, torch.tensor([s for s, _ in ref]), atol=1e-5)
    print("ok")
