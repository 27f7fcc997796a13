import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


def batch_unique_consecutive(ids: list[Int[Tensor, "n"]], pad_value: int) -> Int[Tensor, "batch max_len"]:
    unique = [torch.unique_consecutive(seq) for seq in ids]
    return nn.utils.rnn.pad_sequence(unique, batch_first=True, padding_value=pad_value)


class SemanticTransformer(nn.Module):
    def __init__(self, num_semantic_tokens: int, dim: int, pad_id: int = -1):
        super().__init__()
        self.eos_id = num_semantic_tokens
        self.pad_id = pad_id
        self.semantic_embedding = nn.Embedding(num_semantic_tokens + 1, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 2, 2 * dim, batch_first=True), 1)
        self.to_logits = nn.Linear(dim, num_semantic_tokens + 1)

    def forward(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq vocab"]:
        mask: Bool[Tensor, "batch seq"] = ids != self.pad_id
        tokens = self.semantic_embedding(ids)
        causal = torch.triu(torch.ones(ids.size(1), ids.size(1), dtype=torch.bool), 1)
        h = self.encoder(tokens, mask=causal, src_key_padding_mask=~mask)
        return self.to_logits(h)

    def loss(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, ""]:
        logits = self(ids[:, :-1])
        return F.cross_entropy(logits.transpose(1, 2), ids[:, 1:], ignore_index=self.pad_id)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SemanticTransformer(num_semantic_tokens=50, dim=16).eval()
    raw = [torch.randint(0, 50, (n,)) for n in (12, 7, 9)]
    raw[1][2] = raw[1][1]
    ids = batch_unique_consecutive(raw, pad_value=model.pad_id)
    with torch.no_grad():
        print("loss:", model.loss(ids).item())
