import torch
import torch.nn as nn
from jaxtyping import Bool, Float
from torch import Tensor


def exists(v):
    return v is not None


class MSAModule(nn.Module):
    def __init__(self, dim_msa: int = 16, dim_pairwise: int = 8, max_num_msa: int = 4):
        super().__init__()
        self.max_num_msa = max_num_msa
        self.to_pairwise = nn.Linear(dim_msa, dim_pairwise)

    def subsample(
        self, msa: Float[Tensor, "b s n dm"], msa_mask: Bool[Tensor, "b s"] | None = None
    ) -> tuple[Float[Tensor, "b sampled n dm"], Bool[Tensor, "b sampled"] | None]:
        batch, num_msa, seq_len, dim_msa = msa.shape
        if num_msa <= self.max_num_msa:
            return msa, msa_mask

        rand = torch.randn(batch, num_msa, device=msa.device)
        if exists(msa_mask):
            rand = rand.masked_fill(~msa_mask, -1e4)
        row_indices = rand.topk(self.max_num_msa, dim=-1).indices

        msa = msa.reshape(batch, num_msa, seq_len * dim_msa)
        msa_indices = row_indices[..., None].expand(-1, -1, msa.shape[-1])
        msa = msa.gather(1, msa_indices)
        msa = msa.reshape(batch, self.max_num_msa, seq_len, dim_msa)

        if exists(msa_mask):
            msa_mask = msa_mask.gather(1, row_indices)

        return msa, msa_mask

    def forward(
        self, msa: Float[Tensor, "b s n dm"], msa_mask: Bool[Tensor, "b s"] | None = None
    ) -> Float[Tensor, "b n n dp"]:
        msa, msa_mask = self.subsample(msa, msa_mask)
        weights = msa_mask.float()[..., None, None]
        pooled = (msa * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1.0)
        single = self.to_pairwise(pooled)
        return single[:, :, None, :] + single[:, None, :, :]


if __name__ == "__main__":
    torch.manual_seed(0)
    module = MSAModule(dim_msa=16, dim_pairwise=8, max_num_msa=4)
    msa = torch.randn(2, 7, 5, 16)
    msa_mask = torch.ones(2, 7, dtype=torch.bool)
    msa_mask[0, 5:] = False
    msa_mask[1, 3:] = False
    torch.manual_seed(1)
    pairwise = module(msa, msa_mask)

    torch.manual_seed(1)
    rand = torch.randn(2, 7)
    ref = torch.zeros(2, 5, 5, 8)
    with torch.no_grad():
        for b in range(2):
            scores = [(-1e4 if not msa_mask[b, s] else rand[b, s].item(), s) for s in range(7)]
            chosen = [s for _, s in sorted(scores, key=lambda t: -t[0])[:4]]
            rows = [msa[b, s] for s in chosen if msa_mask[b, s]]
            pooled = sum(rows) / max(len(rows), 1)
            single = module.to_pairwise(pooled)
            for i in range(5):
                for j in range(5):
                    ref[b, i, j] = single[i] + single[j]
    assert torch.allclose(pairwise, ref, atol=1e-5)
    print("ok")
