import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor
from torch.nn.utils.rnn import pack_padded_sequence


def sort_by_length(lengths: Int[Tensor, "batch"]):
    sorted_lengths, order = lengths.sort(descending=True)
    inv_order = torch.empty_like(order)
    inv_order[order] = torch.arange(order.numel())
    return sorted_lengths, order, inv_order


class RegionEncoder(nn.Module):
    """Encodes variable-length sequences of region features into one vector each."""

    def __init__(self, feat_dim: int, hidden: int):
        super().__init__()
        self.rnn = nn.GRU(feat_dim, hidden, batch_first=True)

    def forward(
        self, feats: Float[Tensor, "batch time feat"], lengths: Int[Tensor, "batch"]
    ) -> Float[Tensor, "batch hidden"]:
        sorted_lengths, order, inv_order = sort_by_length(lengths)
        packed = pack_padded_sequence(feats, sorted_lengths, batch_first=True)
        _, h_n = self.rnn(packed)
        return h_n[-1].index_select(0, inv_order)


if __name__ == "__main__":
    torch.manual_seed(0)
    lengths = torch.tensor([2, 5, 3, 4])
    feats = torch.randn(4, 5, 6)
    encoder = RegionEncoder(6, 8)
    with torch.no_grad():
        pooled = encoder(feats, lengths)
        single = torch.stack([encoder.rnn(feats[i : i + 1, : lengths[i]])[1][-1, 0] for i in range(4)])
    print("per-sample max |batched - one at a time|:", (pooled - single).abs().amax(dim=1).tolist())
