import torch
from jaxtyping import Float, Int
from torch import nn
from torch.nn.utils.rnn import pad_sequence

PAD_ID = 0  # row 0 of the item table is the padding row


def collate_sessions(sessions: list[list[int]]) -> Int[torch.Tensor, "batch seq"]:
    seqs = [torch.tensor(s) for s in sessions]
    return pad_sequence(seqs, batch_first=True, padding_value=-1)


class SessionEncoder(nn.Module):
    def __init__(self, num_items: int, dim: int):
        super().__init__()
        self.items = nn.Embedding(num_items + 1, dim, padding_idx=PAD_ID)

    def forward(self, item_ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch dim"]:
        item_vecs: Float[torch.Tensor, "batch seq dim"] = self.items.weight[item_ids]
        return item_vecs.sum(dim=1)

    def score(self, item_ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch items"]:
        return self.forward(item_ids) @ self.items.weight.t()


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = SessionEncoder(num_items=6, dim=4)
    batch = collate_sessions([[3, 1, 5], [2], [4, 4]])
    with torch.no_grad():
        session = encoder(batch)
    print("ids:", batch.tolist())
    print("short session vector:", session[1])
    print("its only item vector:", encoder.items.weight[2])
