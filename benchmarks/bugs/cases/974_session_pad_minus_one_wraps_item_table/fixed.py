from typing import List

import torch
from jaxtyping import Float, Int
from torch import Tensor
from torch.nn.utils.rnn import pad_sequence

PAD_ID = -1


def collate_sessions(sessions: List[List[int]]) -> Int[Tensor, "batch seq"]:
    return pad_sequence([torch.tensor(s) for s in sessions], batch_first=True, padding_value=PAD_ID)


class SessionEncoder(torch.nn.Module):
    """Mean of the item embeddings seen in a browsing session."""

    def __init__(self, num_items: int, dim: int):
        super().__init__()
        self.item_table = torch.nn.Parameter(torch.randn(num_items, dim))

    def forward(self, item_ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch dim"]:
        mask = item_ids != PAD_ID
        lengths = mask.sum(dim=1, keepdim=True)
        vecs: Float[Tensor, "batch seq dim"] = self.item_table[item_ids.clamp(min=0)]
        vecs = vecs * mask.unsqueeze(-1)
        return vecs.sum(dim=1) / lengths


def score_next_items(encoder: SessionEncoder, sessions: List[List[int]]) -> Float[Tensor, "batch items"]:
    user_vec = encoder(collate_sessions(sessions))
    return user_vec @ encoder.item_table.t()


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = SessionEncoder(num_items=50, dim=4)
    sessions = [[3, 17, 8, 21, 5], [9, 2], [44, 30, 12]]
    with torch.no_grad():
        scores = score_next_items(encoder, sessions)
        user_vec = encoder(collate_sessions(sessions))
        table = encoder.item_table
        for b, items in enumerate(sessions):
            ref = [sum(table[i][d].item() for i in items) / len(items) for d in range(table.size(1))]
            assert torch.allclose(user_vec[b], torch.tensor(ref), atol=1e-5)
            for j in range(table.size(0)):
                dot = sum(ref[d] * table[j][d].item() for d in range(table.size(1)))
                assert abs(scores[b, j].item() - dot) < 1e-4
    print("ok")
