import torch
from torch import nn

PAD_ID = -1  # padding value used by the event loader; embeds to zero


def pad_streams(streams, pad_value=PAD_ID):
    """Pads variable-length event-id streams.

    Args:
        streams (list of list of int): event ids per sample.
    Returns:
        LongTensor of shape (batch, max_len), right-padded with ``pad_value``.
    """
    max_len = max(len(s) for s in streams)
    return torch.tensor([s + [pad_value] * (max_len - len(s)) for s in streams])


class EventEncoder(nn.Module):
    """Bag-of-events encoder.

    Args:
        num_event_types (int): number of event ids, i.e. rows of the table.
        dim (int): embedding size.
    """

    def __init__(self, num_event_types: int, dim: int):
        super().__init__()
        self.table = nn.Parameter(torch.randn(num_event_types, dim))

    def forward(self, events: torch.Tensor) -> torch.Tensor:
        """
        Args:
            events (LongTensor of shape (batch, seq_len)): event ids, padded with -1.
        Returns:
            FloatTensor of shape (batch, dim): sum of the event embeddings; padding adds nothing.
        """
        valid = events >= 0  # (batch, seq_len)
        emb = self.table[events.clamp(min=0)]  # (batch, seq_len, dim)
        return (emb * valid.unsqueeze(-1)).sum(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    enc = EventEncoder(num_event_types=16, dim=4)
    streams = [[3, 7, 1, 9, 2], [3, 7]]
    with torch.no_grad():
        pooled = enc(pad_streams(streams))
        for i, s in enumerate(streams):
            ref = torch.zeros(4)
            for e in s:
                ref += enc.table[e]
            assert torch.allclose(pooled[i], ref, atol=1e-6), i
    print("ok")
