import torch
from torch import distributions as D


class MaskedCategorical(D.Categorical):
    """Categorical distribution restricted to the legal actions.

    Args:
        logits (torch.Tensor): unnormalized scores of shape ``(*batch, num_actions)``.
        indices (torch.Tensor): sparse mask, long tensor of shape ``(*batch, num_legal)``
            holding the ids of the legal actions of each row.

    Samples and modes are action ids in ``[0, num_actions)``, shape ``(*batch,)``.
    """

    def __init__(self, logits, indices):
        self._mask = indices
        self._sparse_mask = True
        self.num_samples = logits.shape[-1]
        super().__init__(logits=logits.gather(-1, indices))  # compact (*batch, num_legal)

    def sample(self, sample_shape=torch.Size()):
        ret = super().sample(sample_shape)
        if self._sparse_mask:
            ret = self._mask.expand(*ret.shape, -1).gather(-1, ret.unsqueeze(-1)).squeeze(-1)
        return ret

    @property
    def mode(self):
        return super().mode

    def deterministic_sample(self):
        return self.mode


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.randn(5, 10)  # 5 envs, 10 actions
    legal = torch.stack([torch.randperm(10)[:4].sort().values for _ in range(5)])  # 4 legal actions per env
    dist = MaskedCategorical(logits, legal)
    greedy = dist.deterministic_sample()
    ref = [max(legal[i].tolist(), key=lambda a: logits[i, a].item()) for i in range(5)]
    print("greedy actions:", greedy.tolist(), "reference:", ref)
