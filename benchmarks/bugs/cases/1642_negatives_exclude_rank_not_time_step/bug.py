import torch
import torch.nn as nn


def buffered_arange(max_len):
    return torch.arange(max_len)


class ContrastiveTargets(nn.Module):
    def __init__(self, dim, final_dim, n_negatives, negatives_from_everywhere=True):
        super().__init__()
        self.project_q = nn.Linear(dim, final_dim)
        self.n_negatives = n_negatives
        self.negatives_from_everywhere = negatives_from_everywhere

    def sample_negatives(self, y, num, generator=None):
        bsz, tsz, fsz = y.shape
        y = y.reshape(-1, fsz)
        high = tsz
        with torch.no_grad():
            tszs = buffered_arange(num).unsqueeze(-1).expand(-1, self.n_negatives).flatten()
            neg_idxs = torch.randint(0, high - 1, (bsz, self.n_negatives * num), generator=generator)
            neg_idxs[neg_idxs >= tszs] += 1
        neg_idxs = neg_idxs + (torch.arange(bsz).unsqueeze(1) * high)
        negs = y[neg_idxs.view(-1)]
        negs = negs.view(bsz, num, self.n_negatives, fsz).permute(2, 0, 1, 3)
        return negs, neg_idxs

    def forward(self, unmasked_features, mask_indices, generator=None):
        q = self.project_q(unmasked_features)
        bsz, _, fsz = q.shape
        y = q[mask_indices].view(bsz, -1, fsz)
        if self.negatives_from_everywhere:
            negs, neg_idxs = self.sample_negatives(q, y.size(1), generator)
        else:
            negs, neg_idxs = self.sample_negatives(y, y.size(1), generator)
        return y, negs, neg_idxs


def span_mask(bsz, tsz, starts, span):
    mask = torch.zeros(bsz, tsz, dtype=torch.bool)
    for s in starts:
        mask[:, s : s + span] = True
    return mask


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ContrastiveTargets(dim=32, final_dim=16, n_negatives=10)
    feats = torch.randn(2, 40, 32)
    mask = span_mask(2, 40, starts=[6, 21], span=5)
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        y, negs, neg_idxs = head(feats, mask, generator=gen)
    target_steps = mask.nonzero()[:, 1].view(2, -1)
    drawn_steps = (neg_idxs % 40).view(2, -1, 10)
    hits = (drawn_steps == target_steps.unsqueeze(-1)).sum().item()
    same = (negs == y.unsqueeze(0)).all(-1).sum().item()
    print(f"negatives drawn from their own target frame: {hits} (identical vectors: {same})")
