import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class FusedItemEmbedding(nn.Module):
    """One item table per hyper-parameter trial, trained side by side in a single module.

    The padding item is the last row (id == num_items) so that real item ids keep 0..num_items-1.
    """

    def __init__(self, num_trials: int, num_items: int, dim: int, init_stds: list[float]):
        super().__init__()
        self.num_trials = num_trials
        self.padding_idx = num_items
        self.init_stds = init_stds
        self.weight: Float[Tensor, "trials items_plus_pad dim"] = nn.Parameter(torch.empty(num_trials, num_items + 1, dim))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        with torch.no_grad():
            for t, std in enumerate(self.init_stds):
                self.weight[t].normal_(0.0, std)
            self.weight.data[:, self.padding_idx].zero_()

    def forward(self, item_ids: Int[Tensor, "trials batch seq"]) -> Float[Tensor, "trials batch seq dim"]:
        trial = torch.arange(self.num_trials, device=item_ids.device)[:, None, None]
        return self.weight[trial, item_ids]


class FusedMeanPoolRecommender(nn.Module):
    def __init__(self, num_trials: int, num_items: int, dim: int, init_stds: list[float]):
        super().__init__()
        self.items = FusedItemEmbedding(num_trials, num_items, dim, init_stds)

    def user_vectors(self, history: Int[Tensor, "trials batch seq"]) -> Float[Tensor, "trials batch dim"]:
        emb = self.items(history)
        valid: Float[Tensor, "trials batch seq 1"] = (history != self.items.padding_idx).unsqueeze(-1).float()
        return (emb * valid).sum(dim=2) / valid.sum(dim=2).clamp(min=1.0)

    def scores(self, history: Int[Tensor, "trials batch seq"], candidates: Int[Tensor, "trials batch cand"]) -> Float[Tensor, "trials batch cand"]:
        user = self.user_vectors(history)
        cand = self.items(candidates)
        return (cand * user.unsqueeze(2)).sum(-1)


def pad_histories(histories: list[list[int]], pad_id: int, num_trials: int) -> Int[Tensor, "trials batch seq"]:
    longest = max(len(h) for h in histories)
    rows = [h + [pad_id] * (longest - len(h)) for h in histories]
    return torch.tensor(rows).unsqueeze(0).expand(num_trials, -1, -1).contiguous()


if __name__ == "__main__":
    torch.manual_seed(0)
    num_items = 1000
    model = FusedMeanPoolRecommender(num_trials=4, num_items=num_items, dim=16, init_stds=[0.01, 0.05, 0.1, 0.5])
    history = pad_histories([[3, 17, 256], [999, 5], [42]], pad_id=num_items, num_trials=4)
    candidates = torch.randint(0, num_items, (4, 3, 5))
    with torch.no_grad():
        scores = model.scores(history, candidates)
        w = model.items.weight
        assert torch.count_nonzero(w[:, num_items]) == 0
        assert all(w[t, :num_items].std() > 0 for t in range(4))
        ref = torch.zeros(4, 3, 5)
        for t in range(4):
            for b in range(3):
                real = [i for i in history[t, b].tolist() if i != num_items]
                user = torch.stack([w[t, i] for i in real]).mean(0)
                for c in range(5):
                    ref[t, b, c] = (w[t, candidates[t, b, c]] * user).sum()
    assert torch.allclose(scores, ref, atol=1e-6)
    print("ok")
