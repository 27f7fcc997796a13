import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


def max_dim_with_indices(tensor: Float[Tensor, "..."], dim: int) -> tuple[Float[Tensor, "..."], Int[Tensor, "..."]]:
    """Maximum along `dim` (kept as size 1) together with the position it was taken from."""
    index = tensor.argmax(dim=dim, keepdim=True)
    values = tensor.gather(dim, index)
    return values, index


class ConvTextEncoder(nn.Module):
    def __init__(self, vocab_size: int, embed_dim: int, num_filters: int, kernel_size: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.conv = nn.Conv1d(embed_dim, num_filters, kernel_size, padding=kernel_size // 2)

    def token_features(self, tokens: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq filters"]:
        x = self.embed(tokens).transpose(1, 2)
        return torch.relu(self.conv(x)).transpose(1, 2)

    def forward(self, tokens: Int[Tensor, "batch seq"]) -> tuple[Float[Tensor, "batch filters"], Int[Tensor, "batch filters"]]:
        feats = self.token_features(tokens)
        pooled, where = max_dim_with_indices(feats, dim=1)
        return pooled.squeeze(1), where.squeeze(1)


class TextClassifier(nn.Module):
    def __init__(self, vocab_size: int = 50, embed_dim: int = 8, num_filters: int = 12, num_classes: int = 3):
        super().__init__()
        self.encoder = ConvTextEncoder(vocab_size, embed_dim, num_filters)
        self.head = nn.Linear(num_filters, num_classes)

    def forward(self, tokens: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch classes"]:
        pooled, _ = self.encoder(tokens)
        return self.head(pooled)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TextClassifier()
    tokens = torch.randint(0, 50, (4, 7))
    with torch.no_grad():
        pooled, where = model.encoder(tokens)
        feats = model.encoder.token_features(tokens)
        logits = model(tokens)
    for b in range(feats.size(0)):
        for f in range(feats.size(2)):
            column = [feats[b, t, f].item() for t in range(feats.size(1))]
            best = max(column)
            assert pooled[b, f].item() == best
            assert column[where[b, f].item()] == best
    assert logits.shape == (4, 3)
    print("ok")
