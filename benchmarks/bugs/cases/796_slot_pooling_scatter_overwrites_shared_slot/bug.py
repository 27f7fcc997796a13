import torch
from torch import nn


class SlotPooling(nn.Module):
    """Hard-assigns tokens to slots and sums the features of each slot.

    Args:
        dim (int): token feature size.
        num_slots (int): number of slots.
    """

    def __init__(self, dim: int, num_slots: int):
        super().__init__()
        self.num_slots = num_slots
        self.assign = nn.Linear(dim, num_slots)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """
        Args:
            tokens (FloatTensor of shape (batch, num_tokens, dim)): token features.
        Returns:
            FloatTensor of shape (batch, num_slots, dim): per-slot sum of the tokens assigned to it.
        """
        slot_id = self.assign(tokens).argmax(dim=-1)  # (batch, num_tokens)
        index = slot_id.unsqueeze(-1).expand_as(tokens)  # (batch, num_tokens, dim)
        slots = tokens.new_zeros(tokens.size(0), self.num_slots, tokens.size(-1))
        slots.scatter_(1, index, tokens)
        return slots


def summarize(pool, tokens):
    with torch.no_grad():
        slots = pool(tokens)
    return slots, slots.sum(dim=1), tokens.sum(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    pool = SlotPooling(dim=8, num_slots=3)
    tokens = torch.randn(2, 10, 8)
    slots, slot_total, token_total = summarize(pool, tokens)
    print("sum over slots :", slot_total[0, :4])
    print("sum over tokens:", token_total[0, :4])
