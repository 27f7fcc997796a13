import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class EventEncoder(nn.Module):
    """Causal history encoder: the state at position i has seen events 0..i."""

    def __init__(self, num_types: int, d_model: int):
        super().__init__()
        self.type_emb = nn.Embedding(num_types + 1, d_model, padding_idx=0)
        self.rnn = nn.GRU(d_model + 1, d_model, batch_first=True)

    def forward(self, types: Int[Tensor, "batch seq"], times: Float[Tensor, "batch seq"]) -> Float[Tensor, "batch seq d_model"]:
        x = torch.cat([self.type_emb(types), times.unsqueeze(-1)], dim=-1)
        return self.rnn(x)[0]


class IntensityHead(nn.Module):
    def __init__(self, d_model: int, num_types: int):
        super().__init__()
        self.linear = nn.Linear(d_model, num_types)

    def forward(self, h: Float[Tensor, "batch seq d_model"]) -> Float[Tensor, "batch seq types"]:
        return F.softplus(self.linear(h))


def event_log_likelihood(
    lam: Float[Tensor, "batch seq types"], types: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch"]:
    non_pad = types.ne(0)
    type_lam = lam.gather(-1, (types - 1).clamp(min=0).unsqueeze(-1)).squeeze(-1)
    return (torch.log(type_lam + 1e-9) * non_pad).sum(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder, head = EventEncoder(num_types=3, d_model=8), IntensityHead(8, 3)
    types = torch.tensor([[1, 3, 2, 2, 1], [2, 1, 3, 0, 0]])
    times = torch.cumsum(torch.rand(2, 5), dim=1) * types.ne(0)
    lam = head(encoder(types, times))
    ll = event_log_likelihood(lam, types)
    ref = torch.zeros(2)
    for b in range(2):
        for i in range(1, int(types[b].ne(0).sum())):
            ref[b] += torch.log(lam[b, i - 1, types[b, i] - 1] + 1e-9)
    print("event log-likelihood:", ll.tolist(), "reference:", ref.tolist())
