import torch
import torch.nn as nn
from jaxtyping import Float, Int


class TinyDecoder(nn.Module):
    def __init__(self, vocab: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden, padding_idx=0)
        self.mix = nn.Linear(hidden, hidden)

    def forward(self, input_ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch seq hidden"]:
        h = self.embed(input_ids)
        return torch.tanh(self.mix(h.cumsum(dim=1)))


class DecoderForSequenceClassification(nn.Module):
    def __init__(self, vocab: int, hidden: int, num_labels: int, pad_token_id: int):
        super().__init__()
        self.decoder = TinyDecoder(vocab, hidden)
        self.score = nn.Linear(hidden, num_labels, bias=False)
        self.pad_token_id = pad_token_id

    def forward(self, input_ids: Int[torch.Tensor, "batch seq"]) -> Float[torch.Tensor, "batch labels"]:
        logits: Float[torch.Tensor, "batch seq labels"] = self.score(self.decoder(input_ids))
        batch_size = input_ids.shape[0]
        non_pad = torch.ne(input_ids, self.pad_token_id).int()
        positions = torch.arange(input_ids.shape[-1], dtype=torch.int32)
        last_token: Int[torch.Tensor, " batch"] = (positions * non_pad).argmax(-1)
        return logits[torch.arange(batch_size), last_token]


def left_pad(seqs, pad_id):
    width = max(len(s) for s in seqs)
    return torch.tensor([[pad_id] * (width - len(s)) + s for s in seqs])


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DecoderForSequenceClassification(vocab=30, hidden=8, num_labels=3, pad_token_id=0)
    prompts = [[5, 6, 7, 8, 9], [11, 12], [21, 22, 23]]
    batch = left_pad(prompts, pad_id=0)
    pooled = model(batch)
    single = torch.cat([model(torch.tensor([p])) for p in prompts])
    full = model.score(model.decoder(batch))
    for b, p in enumerate(prompts):
        last = batch.shape[1] - 1
        assert batch[b, last].item() == p[-1]
        assert torch.allclose(pooled[b], full[b, last])
        assert torch.allclose(pooled[b], single[b], atol=1e-6)
    print("ok")
