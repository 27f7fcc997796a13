from math import prod
from typing import Optional, Sequence, Union

import torch
import torch.distributions as D


class MaskedCategorical(D.Categorical):
    """Categorical distribution restricted to valid actions.

    ``mask`` is a boolean tensor like ``logits``/``probs`` (False entries are masked out), or, when
    ``sparse_mask`` is True, the list of valid action indices, padded with ``padding_value``.
    Samples are always returned in the original action space.
    """

    def __init__(
        self,
        logits: Optional[torch.Tensor] = None,
        probs: Optional[torch.Tensor] = None,
        mask: Optional[torch.Tensor] = None,
        neg_inf: float = float("-inf"),
        sparse_mask: bool = False,
        padding_value: Optional[int] = None,
    ) -> None:
        if mask is None:
            raise ValueError(f"A mask must be provided for {type(self)}.")
        if probs is not None:
            if logits is not None:
                raise ValueError("Either `probs` or `logits` must be specified, but not both.")
            probs = probs.clone()
            probs[~mask] = 0
            probs = probs / probs.sum(-1, keepdim=True)
            logits = probs.log()
        logits = self._mask_logits(logits, mask, neg_inf, sparse_mask, padding_value)
        self._mask = mask
        self._sparse_mask = sparse_mask
        super().__init__(logits=logits)

    @staticmethod
    def _mask_logits(logits, mask, neg_inf, sparse_mask, padding_value):
        if not sparse_mask:
            return torch.where(mask, logits, neg_inf)
        if padding_value is not None:
            padding_mask = mask == padding_value
            mask = mask.masked_fill(padding_mask, 0)
        logits = logits.gather(dim=-1, index=mask)
        if padding_value is not None:
            logits = logits.masked_fill(padding_mask, neg_inf)
        return logits

    def sample(self, sample_shape: Union[torch.Size, Sequence[int]] = torch.Size()) -> torch.Tensor:
        ret = super().sample(sample_shape)
        if not self._sparse_mask:
            return ret
        outer_dim = prod(sample_shape)
        inner_dim = prod(self._mask.size()[:-1])
        idx_3d = self._mask.expand(outer_dim, inner_dim, -1)
        return idx_3d.gather(dim=-1, index=ret.view(outer_dim, inner_dim, 1)).view(ret.size())

    def log_prob(self, value: torch.Tensor) -> torch.Tensor:
        if not self._sparse_mask:
            return super().log_prob(value)
        idx_3d = self._mask.view(1, -1, self._num_events)
        hit = idx_3d == value.view(-1, idx_3d.size(1), 1)
        ret = super().log_prob(hit.int().argmax(dim=-1).view(value.size()))
        return ret.masked_fill(~hit.any(dim=-1).view(value.size()), float("-inf"))


if __name__ == "__main__":
    torch.manual_seed(0)
    token_probs = torch.softmax(torch.randn(4, 50), dim=-1)
    candidates = torch.tensor(
        [[3, 17, 21, 40, -1, -1], [0, 5, 9, 11, 12, 49], [7, 8, -1, -1, -1, -1], [25, 30, 31, 33, 44, -1]]
    )
    dist = MaskedCategorical(probs=token_probs, mask=candidates, sparse_mask=True, padding_value=-1)
    tokens = dist.sample((8,))
    print("sampled tokens:", tokens[0].tolist(), "log-prob:", dist.log_prob(tokens)[0].tolist())
