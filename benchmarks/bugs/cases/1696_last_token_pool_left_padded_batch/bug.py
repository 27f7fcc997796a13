import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class ToyTokenizer:
    padding_side = "left"
    pad_token_id = 0

    def __call__(self, texts: list[str]) -> dict[str, Tensor]:
        ids = [[1 + sum(map(ord, w)) % 997 for w in t.lower().split()] for t in texts]
        width = max(map(len, ids))
        input_ids = torch.full((len(ids), width), self.pad_token_id)
        attention_mask = torch.zeros(len(ids), width, dtype=torch.long)
        for i, row in enumerate(ids):
            span = slice(width - len(row), width) if self.padding_side == "left" else slice(0, len(row))
            input_ids[i, span] = torch.tensor(row)
            attention_mask[i, span] = 1
        return {"input_ids": input_ids, "attention_mask": attention_mask}


class CausalEncoder(nn.Module):
    def __init__(self, vocab_size: int = 1000, hidden: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)

    def forward(
        self, input_ids: Int[Tensor, "batch seq"], attention_mask: Int[Tensor, "batch seq"]
    ) -> Float[Tensor, "batch seq hidden"]:
        m = attention_mask.unsqueeze(-1).float()
        summed = (self.embed(input_ids) * m).cumsum(dim=1)
        return torch.tanh(summed / m.cumsum(dim=1).clamp(min=1.0))


def last_token_pool(
    last_hidden_states: Float[Tensor, "batch seq hidden"], attention_mask: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch hidden"]:
    sequence_lengths = attention_mask.sum(dim=1) - 1
    batch_size = last_hidden_states.shape[0]
    return last_hidden_states[torch.arange(batch_size, device=last_hidden_states.device), sequence_lengths]


@torch.no_grad()
def embed_documents(model: CausalEncoder, tokenizer: ToyTokenizer, docs: list[str]) -> Float[Tensor, "batch hidden"]:
    batch = tokenizer(docs)
    hidden = model(batch["input_ids"], batch["attention_mask"])
    return F.normalize(last_token_pool(hidden, batch["attention_mask"]), dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    tokenizer, model = ToyTokenizer(), CausalEncoder()
    docs = [
        "the museum opened its new wing to the public in the spring of that year",
        "a short note on river deltas",
        "census records list the family in the northern district",
        "obituary",
    ]
    batched = embed_documents(model, tokenizer, docs)
    single = torch.cat([embed_documents(model, tokenizer, [d]) for d in docs])
    cosine = (batched * single).sum(-1)
    print("batched vs per-document cosine:", [round(c, 3) for c in cosine.tolist()])
