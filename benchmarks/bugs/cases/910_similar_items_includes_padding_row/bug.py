import torch
import torch.nn as nn
import torch.nn.functional as F


class SequenceRecommender(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.item_emb = nn.Embedding(cfg["max_item_id"] + 1, cfg["dim"], padding_idx=0)

    def similar_items(self, item_ids, k):
        query = F.normalize(self.item_emb(item_ids), dim=-1)
        all_ids = torch.arange(self.item_emb.num_embeddings)
        cands = F.normalize(self.item_emb(all_ids), dim=-1)
        sims = query @ cands.T
        sims[torch.arange(len(item_ids)), item_ids] = float("-inf")
        return sims.topk(k, dim=-1).indices


def load_model(cfg, seed):
    torch.manual_seed(seed)
    model = SequenceRecommender(cfg)
    with torch.no_grad():
        model.item_emb.weight[1:] = torch.randn(cfg["max_item_id"], cfg["dim"])
    return model


if __name__ == "__main__":
    cfg = {"max_item_id": 6, "dim": 3}
    model = load_model(cfg, seed=3)
    queries = torch.arange(1, cfg["max_item_id"] + 1)
    neigh = model.similar_items(queries, k=2)
    for q, row in zip(queries.tolist(), neigh.tolist()):
        print("item", q, "-> similar", row)
