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

    def sample_negatives(self, y, num, target_steps, generator=None):
        bsz, tsz, fsz = y.shape
        y = y.reshape(-1, fsz)
        high = tsz
        with torch.no_grad():
            # time step of each target in y's own time axis, repeated per negative
            tszs = target_steps.repeat_interleave(self.n_negatives, dim=1)
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
            target_steps = mask_indices.nonzero()[:, 1].view(bsz, -1)
            negs, neg_idxs = self.sample_negatives(q, y.size(1), target_steps, generator)
        else:
            target_steps = buffered_arange(y.size(1)).unsqueeze(0).expand(bsz, -1)
            negs, neg_idxs = self.sample_negatives(y, y.size(1), target_steps, generator)
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
    q = head.project_q(feats).detach()
    raw = torch.randint(0, 39, (2, 10 * y.size(1)), generator=torch.Generator().manual_seed(1))
    for b in range(2):
        for i in range(y.size(1)):
            t = target_steps[b, i].item()
            assert torch.equal(y[b, i], q[b, t])
            for k in range(10):
                r = raw[b, i * 10 + k].item()
                step = r + 1 if r >= t else r
                assert step != t
                assert torch.equal(negs[k, b, i], q[b, step]), (b, i, k)
    print("ok")
