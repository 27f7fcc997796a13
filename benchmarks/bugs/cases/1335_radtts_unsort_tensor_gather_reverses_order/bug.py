from typing import Optional, Tuple

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


def sort_tensor(
    context: torch.Tensor, lens: torch.Tensor, dim: Optional[int] = 0, descending: Optional[bool] = True
) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Sorts the entries of `context` along `dim` by their lengths.

    Args:
        context: (B, T, C) padded batch.
        lens: (B,) valid length of every entry.
        dim: the batch dimension of `context`.

    Returns:
        context: (B, T, C) batch in length order.
        lens_sorted: (B,) sorted lengths.
        ids_sorted: (B,) position in the input batch of every sorted entry.
    """
    lens_sorted, ids_sorted = torch.sort(lens, descending=descending)
    context = torch.index_select(context, dim, ids_sorted)
    return context, lens_sorted, ids_sorted


def unsort_tensor(ordered: torch.Tensor, indices: torch.Tensor, dim: Optional[int] = 0) -> torch.Tensor:
    """Undoes `sort_tensor`.

    Args:
        ordered: (B, T, C) batch in length order.
        indices: (B,) `ids_sorted` returned by `sort_tensor`.

    Returns:
        (B, T, C) batch in the original order.
    """
    unsort_ids = indices.gather(0, indices.argsort(0, descending=True))
    return torch.index_select(ordered, dim, unsort_ids)


class ContextLSTM(nn.Module):
    """Bidirectional LSTM over variable-length text encodings (RAD-TTS style).

    Args:
        n_channels: C, feature size of the encoder output.
        n_hidden: hidden size of each direction.
    """

    def __init__(self, n_channels: int, n_hidden: int):
        super().__init__()
        self.lstm = nn.LSTM(n_channels, n_hidden, batch_first=True, bidirectional=True)

    def forward(self, context: torch.Tensor, lens: torch.Tensor) -> torch.Tensor:
        """
        Args:
            context: (B, T, C) encoder output.
            lens: (B,) number of valid frames per entry.

        Returns:
            (B, T, 2 * n_hidden) features, in the same batch order as `context`.
        """
        context_sorted, lens_sorted, ids_sorted = sort_tensor(context, lens)
        packed = pack_padded_sequence(context_sorted, lens_sorted.cpu(), batch_first=True)
        out, _ = self.lstm(packed)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=context.shape[1])
        return unsort_tensor(out, ids_sorted)


if __name__ == "__main__":
    torch.manual_seed(0)
    module = ContextLSTM(n_channels=8, n_hidden=6).eval()
    lens = torch.tensor([5, 9, 3, 7])
    context = torch.randn(4, 9, 8)
    with torch.no_grad():
        out = module(context, lens)
        for b in range(4):
            ref, _ = module.lstm(context[b : b + 1, : lens[b]])
            err = (out[b, : lens[b]] - ref[0]).abs().max().item()
            print(f"entry {b} (len {lens[b].item()}): max abs diff vs. running it alone = {err:.4f}")
