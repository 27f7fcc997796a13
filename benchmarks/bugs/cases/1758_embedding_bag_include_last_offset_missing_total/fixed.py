import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def pack_histories(histories: list[list[int]]) -> tuple[Int[Tensor, " total"], Int[Tensor, " n_users_plus_one"]]:
    flat = torch.tensor([item for history in histories for item in history], dtype=torch.long)
    lengths = torch.tensor([len(history) for history in histories], dtype=torch.long)
    offsets = torch.cat([lengths.new_zeros(1), torch.cumsum(lengths, dim=0)])
    return flat, offsets


class UserTower(nn.Module):
    def __init__(self, num_items: int, dim: int):
        super().__init__()
        self.item_bag = nn.EmbeddingBag(num_items, dim, mode="sum", include_last_offset=True)

    def forward(
        self, flat_items: Int[Tensor, " total"], offsets: Int[Tensor, " n_users_plus_one"]
    ) -> Float[Tensor, "n_users dim"]:
        return self.item_bag(flat_items, offsets)


def score_candidates(
    user_vecs: Float[Tensor, "n_users dim"], item_table: Float[Tensor, "num_items dim"]
) -> Float[Tensor, "n_users num_items"]:
    return user_vecs @ item_table.T


if __name__ == "__main__":
    torch.manual_seed(0)
    histories = [[3, 7, 7, 1], [12, 5], [0, 9, 14]]
    tower = UserTower(num_items=16, dim=8)
    flat, offsets = pack_histories(histories)
    with torch.no_grad():
        user_vecs = tower(flat, offsets)
        scores = score_candidates(user_vecs, tower.item_bag.weight)
    weight = tower.item_bag.weight.detach()
    assert user_vecs.shape == (len(histories), 8)
    for u, history in enumerate(histories):
        ref = torch.zeros(8)
        for item in history:
            ref += weight[item]
        assert torch.allclose(user_vecs[u], ref, atol=1e-6)
    print("ok")
