import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor


def first_true_indices(bools: Bool[Tensor, "batch seq"], dtype=torch.long) -> Int[Tensor, "batch"]:
    row_len = bools.size(-1)
    zero_or_index = row_len * (~bools).type(dtype) + torch.arange(row_len, dtype=dtype)
    return torch.min(zero_or_index, dim=-1).values


class ToyRewardModel(nn.Module):
    def __init__(self, vocab: int, dim: int):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.score = nn.Linear(dim, 1)

    def forward(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq 1"]:
        hidden, _ = self.mix(self.emb(ids))
        return self.score(hidden)


def get_reward(
    model: ToyRewardModel, query_responses: Int[Tensor, "batch seq"], pad_token_id: int, context_length: int
) -> Float[Tensor, "batch"]:
    reward_logits = model(query_responses.masked_fill(query_responses == pad_token_id, 0))
    sequence_lengths = first_true_indices(query_responses[:, context_length:] == pad_token_id) - 1 + context_length
    batch_idx = torch.arange(reward_logits.size(0))
    return reward_logits[batch_idx, sequence_lengths].squeeze(-1)


def encode_chat(turns: list[list[int]], eos: int, max_len: int) -> tuple[Int[Tensor, "seq"], Int[Tensor, "seq"]]:
    ids = []
    for turn in turns:
        ids += turn + [eos]  # the chat template closes every turn with eos
    mask = [1] * len(ids) + [0] * (max_len - len(ids))
    ids = ids + [eos] * (max_len - len(ids))  # pad_token = eos_token, right padding
    return torch.tensor(ids), torch.tensor(mask)


if __name__ == "__main__":
    torch.manual_seed(0)
    EOS = 2
    model = ToyRewardModel(vocab=40, dim=16)
    chats = [
        [[5, 6, 7], [11, 12, 13, 14]],
        [[5, 6, 7], [21, 22]],
        [[8, 9], [30, 31, 32, 33, 34]],
    ]
    encoded = [encode_chat(c, EOS, max_len=12) for c in chats]
    ids = torch.stack([e[0] for e in encoded])
    mask = torch.stack([e[1] for e in encoded])
    rewards = get_reward(model, ids, pad_token_id=EOS, context_length=0)
    print("rewards:", rewards)
    print("rewards differ between chats 0 and 1:", not torch.allclose(rewards[0], rewards[1]))
