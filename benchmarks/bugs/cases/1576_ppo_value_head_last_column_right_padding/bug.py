import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class CausalTrunk(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.mix = nn.Linear(hidden_size, hidden_size)

    def forward(
        self, input_ids: Int[Tensor, "batch seq"], attention_mask: Int[Tensor, "batch seq"]
    ) -> Float[Tensor, "batch seq hidden"]:
        x = self.embed(input_ids)
        context = torch.cumsum(x * attention_mask[..., None], dim=1)
        return torch.tanh(self.mix(context) + x)


class ValueHeadModel(nn.Module):
    """Policy trunk with a scalar value head read at the end of each (right-padded) sequence."""

    def __init__(self, vocab_size: int = 50, hidden_size: int = 32):
        super().__init__()
        self.trunk = CausalTrunk(vocab_size, hidden_size)
        self.v_head = nn.Linear(hidden_size, 1)

    def forward(
        self, input_ids: Int[Tensor, "batch seq"], attention_mask: Int[Tensor, "batch seq"]
    ) -> Float[Tensor, "batch"]:
        hidden: Float[Tensor, "batch seq hidden"] = self.trunk(input_ids, attention_mask)
        last_hidden: Float[Tensor, "batch hidden"] = hidden[:, -1, :]
        return self.v_head(last_hidden).squeeze(-1)


def right_pad(seqs: list[list[int]], pad_id: int) -> tuple[Int[Tensor, "batch seq"], Int[Tensor, "batch seq"]]:
    width = max(len(s) for s in seqs)
    ids = torch.tensor([s + [pad_id] * (width - len(s)) for s in seqs])
    mask = torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in seqs])
    return ids, mask


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ValueHeadModel().eval()
    query_response = [[5, 9, 13, 2, 40, 41], [5, 9, 22, 17], [6, 30, 31, 32, 33]]
    ids, mask = right_pad(query_response, pad_id=0)
    with torch.no_grad():
        values = model(ids, mask)
        alone = [model(torch.tensor([s]), torch.ones(1, len(s), dtype=torch.long)).item() for s in query_response]
    print("batched values :", values.tolist())
    print("unpadded values:", alone)
