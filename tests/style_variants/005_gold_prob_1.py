import torch
import torch.nn as nn


class ConfidenceScorer(nn.Module):
    def __init__(self, in_dim, n_cls):
        super().__init__()
        self.head = nn.Linear(in_dim, n_cls)

    @torch.no_grad()
    def forward(self, feats, target):
        # feats: [B, in_dim], target: [B]
        p = self.head(feats).softmax(-1)  # [B, n_cls]
        return p.gather(dim=1, index=target.unsqueeze(0)).squeeze(0)  # expect: GL005


if __name__ == "__main__":
    scorer = ConfidenceScorer(6, 5)
    feats = torch.randn(8, 6)
    target = torch.randint(0, 5, (8,))
    conf = scorer(feats, target)
    p = scorer.head(feats).softmax(-1)
    ref = torch.stack([p[i, target[i]] for i in range(8)])
    assert conf.shape != ref.shape or not torch.allclose(conf, ref)
