import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class TokenRewardModel(nn.Module):
    def __init__(self, vocab: int, dim: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.v_head = nn.Linear(dim, 1, bias=False)

    def forward(self, input_ids: Int[Tensor, "b l"]) -> Float[Tensor, "b l"]:
        h = self.embed(input_ids).cumsum(1) / torch.arange(1, input_ids.size(1) + 1).view(1, -1, 1)
        return self.v_head(torch.tanh(h)).squeeze(-1)


def first_pad(ids: Int[Tensor, "b l"], pad_id: int) -> Int[Tensor, "b"]:
    is_pad = ids == pad_id
    return torch.where(is_pad.any(1), is_pad.int().argmax(1), torch.full_like(ids[:, 0], ids.size(1)))


def pairwise_loss(
    model: TokenRewardModel, chosen: Int[Tensor, "b l"], rejected: Int[Tensor, "b l"], pad_id: int
) -> tuple[Float[Tensor, ""], Float[Tensor, "b"], Float[Tensor, "b"]]:
    chosen_rewards, rejected_rewards = model(chosen), model(rejected)
    c_ind, r_ind = first_pad(chosen, pad_id), first_pad(rejected, pad_id)
    end_ind = torch.maximum(c_ind, r_ind)
    c_end = chosen_rewards.gather(1, (c_ind - 1).unsqueeze(1)).squeeze(1)
    r_end = rejected_rewards.gather(1, (r_ind - 1).unsqueeze(1)).squeeze(1)
    return -F.logsigmoid(c_end - r_end).mean(), c_end, r_end


if __name__ == "__main__":
    torch.manual_seed(0)
    pad_id = 0
    model = TokenRewardModel(vocab=20, dim=8).eval()
    chosen = torch.tensor([[5, 6, 7, 8, 0, 0, 0], [9, 3, 0, 0, 0, 0, 0], [4, 4, 11, 12, 13, 14, 2]])
    rejected = torch.tensor([[5, 6, 0, 0, 0, 0, 0], [9, 3, 15, 16, 17, 0, 0], [4, 4, 18, 0, 0, 0, 0]])
    with torch.no_grad():
        loss, c_end, r_end = pairwise_loss(model, chosen, rejected, pad_id)
        ref_c, ref_r = [], []
        for ids, out in ((chosen, ref_c), (rejected, ref_r)):
            for row in ids:
                toks = row[row != pad_id]
                out.append(model(toks[None])[0, -1])
        ref_c, ref_r = torch.stack(ref_c), torch.stack(ref_r)
        ref_loss = -F.logsigmoid(ref_c - ref_r).mean()
    assert torch.allclose(c_end, ref_c, atol=1e-6) and torch.allclose(r_end, ref_r, atol=1e-6)
    assert torch.allclose(loss, ref_loss, atol=1e-6)
    print("ok")
