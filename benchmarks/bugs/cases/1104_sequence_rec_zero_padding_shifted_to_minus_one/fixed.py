import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class InteractionSequences(Dataset):
    """Per-user histories of 1-based item ids; 0 is reserved for padding."""

    def __init__(self, histories, max_len):
        self.histories = histories
        self.max_len = max_len

    def __len__(self):
        return len(self.histories)

    def __getitem__(self, u):
        hist = self.histories[u][-self.max_len:]
        seq = torch.zeros(self.max_len, dtype=torch.long)
        if hist:
            seq[-len(hist):] = torch.tensor(hist)
        return seq


class PooledHistoryScorer(nn.Module):
    def __init__(self, num_items, dim):
        super().__init__()
        self.item_embeddings = nn.Embedding(num_items + 1, dim, padding_idx=0)
        nn.init.normal_(self.item_embeddings.weight, std=0.5)
        with torch.no_grad():
            self.item_embeddings.weight[0].zero_()

    def user_vector(self, sequences):
        hist = self.item_embeddings(sequences)
        return hist.sum(dim=1)

    def forward(self, sequences):
        return self.user_vector(sequences) @ self.item_embeddings.weight[1:].t()


def recommend(model, loader, k):
    with torch.no_grad():
        return torch.cat([model(batch).topk(k, dim=-1).indices + 1 for batch in loader])


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"num_items": 12, "dim": 8, "max_len": 5, "top_k": 3}
    histories = [[3, 5, 7, 2, 9, 4], [11], [1, 2], [6, 8, 10]]
    ds = InteractionSequences(histories, cfg["max_len"])
    model = PooledHistoryScorer(cfg["num_items"], cfg["dim"])
    loader = DataLoader(ds, batch_size=2)
    w = model.item_embeddings.weight.detach()
    with torch.no_grad():
        users = torch.cat([model.user_vector(b) for b in loader])
        scores = torch.cat([model(b) for b in loader])
    for u, hist in enumerate(histories):
        ref = torch.zeros(cfg["dim"])
        for item in hist[-cfg["max_len"]:]:
            ref += w[item]
        assert torch.allclose(users[u], ref, atol=1e-6)
        for item in range(1, cfg["num_items"] + 1):
            assert abs(float(scores[u, item - 1]) - float(ref @ w[item])) < 1e-5
    recommend(model, loader, cfg["top_k"])
    print("ok")
