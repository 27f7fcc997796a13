"""Permutation-invariant SI-SDR training loss for speech separation.

Pairwise losses between every (target, estimate) pair are computed once, every
permutation is scored with a single gather, and the estimates are reordered to
match the targets with the best permutation.
"""
from itertools import permutations

import torch
from torch import nn

EPS = 1e-8


def pairwise_neg_sisdr(est_sources, targets):
    # est_sources, targets: [B, n_src, T]  ->  [B, n_src (target), n_src (estimate)]
    targets = targets - targets.mean(dim=-1, keepdim=True)
    est_sources = est_sources - est_sources.mean(dim=-1, keepdim=True)
    s_target = targets.unsqueeze(2)                                    # [B, n_src, 1, T]
    s_est = est_sources.unsqueeze(1)                                   # [B, 1, n_src, T]
    dot = (s_est * s_target).sum(dim=-1, keepdim=True)                 # [B, n_src, n_src, 1]
    energy = (s_target ** 2).sum(dim=-1, keepdim=True) + EPS           # [B, n_src, 1, 1]
    proj = dot * s_target / energy                                     # [B, n_src, n_src, T]
    noise = s_est - proj
    ratio = (proj ** 2).sum(dim=-1) / ((noise ** 2).sum(dim=-1) + EPS)
    return -10 * torch.log10(ratio + EPS)                              # [B, n_src, n_src]


class PITLossWrapper(nn.Module):
    def __init__(self, n_src):
        super().__init__()
        # all permutations of the estimates: [n_perm, n_src]
        self.register_buffer("perms", torch.tensor(list(permutations(range(n_src))), dtype=torch.long))

    def find_best_perm(self, pw_losses):
        # pw_losses: [B, n_src, n_src]; pw_losses[b, i, j] = loss(target i, estimate j)
        batch, n_src, _ = pw_losses.shape
        n_perm = self.perms.size(0)
        # idx[b, i, q] = perms[q, i]  ->  picked[b, i, q] = pw_losses[b, i, perms[q, i]]
        idx = self.perms.t().unsqueeze(0).expand(batch, n_src, n_perm)
        picked = pw_losses.gather(2, idx)                              # [B, n_src, n_perm]
        perm_losses = picked.mean(dim=1)                               # [B, n_perm]
        min_loss, min_idx = perm_losses.min(dim=1)                     # [B], [B]
        best_perm = self.perms.index_select(0, min_idx)                # [B, n_src]
        return min_loss, best_perm

    @staticmethod
    def reorder_source(est_sources, best_perm):
        # est_sources: [B, n_src, T], best_perm: [B, n_src]  ->  [B, n_src, T]
        index = best_perm.unsqueeze(-1).expand(-1, -1, est_sources.size(-1))
        return est_sources.gather(1, index)

    @staticmethod
    def inverse_perm(best_perm):
        # inv[b, best_perm[b, i]] = i
        src = torch.arange(best_perm.size(1), device=best_perm.device).expand_as(best_perm)
        return torch.empty_like(best_perm).scatter_(1, best_perm, src)

    def forward(self, est_sources, targets, return_est=False):
        pw_losses = pairwise_neg_sisdr(est_sources, targets)
        min_loss, best_perm = self.find_best_perm(pw_losses)
        loss = min_loss.mean()
        if not return_est:
            return loss
        return loss, self.reorder_source(est_sources, best_perm), best_perm


if __name__ == "__main__":
    torch.manual_seed(0)
    batch, n_src, T = 4, 3, 800
    targets = torch.randn(batch, n_src, T)
    true_perm = torch.stack([torch.randperm(n_src) for _ in range(batch)])
    est = torch.stack([targets[b, true_perm[b]] for b in range(batch)]) + 0.1 * torch.randn(batch, n_src, T)

    pit = PITLossWrapper(n_src)
    loss, reordered, best_perm = pit(est, targets, return_est=True)

    pw = pairwise_neg_sisdr(est, targets)
    ref_losses = []
    for b in range(batch):
        best = None
        for p in permutations(range(n_src)):
            val = sum(float(pw[b, i, p[i]]) for i in range(n_src)) / n_src
            if best is None or val < best[0]:
                best = (val, list(p))
        ref_losses.append(best[0])
        assert best_perm[b].tolist() == best[1]
        for i in range(n_src):
            assert torch.equal(reordered[b, i], est[b, best[1][i]])
            assert int(true_perm[b, best[1][i]]) == i  # the estimate that was built from target i
    assert abs(loss.item() - sum(ref_losses) / batch) < 1e-4

    inv = pit.inverse_perm(best_perm)
    for b in range(batch):
        for i in range(n_src):
            assert int(inv[b, int(best_perm[b, i])]) == i
    print("ok")
