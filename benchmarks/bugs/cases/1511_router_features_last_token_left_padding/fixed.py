import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def pool_last(
    hidden: Float[Tensor, "batch seq dim"], attention_mask: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch dim"]:
    positions = torch.arange(attention_mask.size(1), device=attention_mask.device)
    rightmost = (positions * attention_mask).argmax(dim=1)
    last = rightmost.view(-1, 1, 1).expand(-1, 1, hidden.size(-1))
    return hidden.gather(1, last).squeeze(1)


def pool_mean(
    hidden: Float[Tensor, "batch seq dim"], attention_mask: Int[Tensor, "batch seq"]
) -> Float[Tensor, "batch dim"]:
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)


class PrefillFeatureExtractor(nn.Module):
    """Per-layer prompt features for a prefill router (last-token and mean pools)."""

    def __init__(self, vocab: int, dim: int, n_layers: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, 2, 2 * dim, dropout=0.0, batch_first=True) for _ in range(n_layers)
        )

    def forward(
        self, input_ids: Int[Tensor, "batch seq"], attention_mask: Int[Tensor, "batch seq"]
    ) -> dict[str, Float[Tensor, "layers batch dim"]]:
        h = self.embed(input_ids)
        last, mean = [], []
        for layer in self.layers:
            h = layer(h, src_key_padding_mask=attention_mask == 0)
            last.append(pool_last(h, attention_mask))
            mean.append(pool_mean(h, attention_mask))
        return {"last": torch.stack(last), "mean": torch.stack(mean)}


def left_pad(seqs: list[list[int]], pad_id: int) -> tuple[Tensor, Tensor]:
    width = max(len(s) for s in seqs)
    ids = torch.tensor([[pad_id] * (width - len(s)) + s for s in seqs])
    mask = torch.tensor([[0] * (width - len(s)) + [1] * len(s) for s in seqs])
    return ids, mask


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PrefillFeatureExtractor(vocab=100, dim=16, n_layers=2).eval()
    ids, mask = left_pad([[5, 17, 42, 8, 9, 3], [11, 12, 13], [7, 7, 21, 30]], pad_id=0)
    with torch.no_grad():
        feats = model(ids, mask)
        h = model.embed(ids)
        ref = []
        for layer in model.layers:
            h = layer(h, src_key_padding_mask=mask == 0)
            ref.append(torch.stack([h[b, mask[b].nonzero().max()] for b in range(ids.size(0))]))
        ref = torch.stack(ref)
    assert torch.allclose(feats["last"], ref, atol=1e-6)
    print("ok")
