import torch
import torch.nn.functional as F


def pad_hard_negatives(group, num_hard_negatives, generator):
    """Give one training example exactly ``num_hard_negatives`` negatives.

    Args:
        group: Tensor of shape (2 + n_neg, D) laid out as
            [anchor, positive, neg_1, ..., neg_n] (n_neg >= 1).
        num_hard_negatives: K, the number of negatives every example must carry.
        generator: torch.Generator used to resample missing negatives.

    Returns:
        Tensor of shape (2 + K, D): anchor, positive and K negatives.
    """
    n_neg = group.size(0) - 2
    if n_neg >= num_hard_negatives:
        return group[: 2 + num_hard_negatives]
    picks = torch.randint(0, n_neg, (num_hard_negatives - n_neg,), generator=generator)
    resampled = group.index_select(0, picks + 1)  # rows of the supplied negatives
    return torch.cat([group, resampled], dim=0)


class InfoNCEWithHardNegatives(torch.nn.Module):
    """InfoNCE over [anchor, positive, K hard negatives] groups.

    Args:
        temperature: softmax temperature.
        num_hard_negatives: K.
    """

    def __init__(self, temperature=0.05, num_hard_negatives=3, seed=0):
        super().__init__()
        self.temperature = temperature
        self.num_hard_negatives = num_hard_negatives
        self.generator = torch.Generator().manual_seed(seed)

    def forward(self, groups):
        """
        Args:
            groups: list of B tensors, each (2 + n_neg_i, D).
        Returns:
            scalar loss.
        """
        padded = torch.stack([pad_hard_negatives(g, self.num_hard_negatives, self.generator) for g in groups])
        padded = F.normalize(padded, dim=-1)  # (B, 2 + K, D)
        anchor = padded[:, 0]  # (B, D)
        candidates = padded[:, 1:]  # (B, 1 + K, D): positive first
        logits = torch.einsum("bd,bkd->bk", anchor, candidates) / self.temperature
        target = torch.zeros(logits.size(0), dtype=torch.long)
        return F.cross_entropy(logits, target)


if __name__ == "__main__":
    torch.manual_seed(0)
    dim = 8
    # example 0 has one supplied negative, example 1 has three
    groups = [torch.randn(3, dim), torch.randn(5, dim)]
    padded = pad_hard_negatives(groups[0], 3, torch.Generator().manual_seed(0))
    positive = groups[0][1]
    n_pos_as_neg = sum(bool(torch.equal(row, positive)) for row in padded[2:])
    print("negatives that are copies of the positive:", n_pos_as_neg)
    loss = InfoNCEWithHardNegatives()(groups)
    print("loss:", loss.item())
