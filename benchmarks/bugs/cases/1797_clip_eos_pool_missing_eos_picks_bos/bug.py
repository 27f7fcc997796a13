import torch
import torch.nn as nn

SOT, EOT, PAD = 49406, 49407, 0


def text_global_pool(x, text, eos_token_id):
    # x: [B, L, D] token features, text: [B, L] token ids
    idx = (text == eos_token_id).int().argmax(dim=-1)  # [B]
    pooled = x[torch.arange(x.shape[0]), idx]  # [B, D]
    return pooled


class TextTower(nn.Module):
    def __init__(self, vocab_size=49408, context_length=8, width=16, embed_dim=8):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.positional_embedding = nn.Parameter(torch.randn(context_length, width) * 0.01)
        self.ln_final = nn.LayerNorm(width)
        self.text_projection = nn.Parameter(torch.randn(width, embed_dim) * width ** -0.5)

    def forward(self, text):
        x = self.token_embedding(text) + self.positional_embedding  # [B, L, W]
        x = self.ln_final(x)
        pooled = text_global_pool(x, text, eos_token_id=EOT)  # [B, W]
        return pooled @ self.text_projection  # [B, E]


def tokenize(ids, context_length=8):
    row = [SOT] + ids + [EOT]
    row = row[:context_length]  # long captions lose their EOT here
    return row + [PAD] * (context_length - len(row))


if __name__ == "__main__":
    torch.manual_seed(0)
    tower = TextTower()
    text = torch.tensor([tokenize([320, 1929]), tokenize([320, 2368, 525, 518, 3466, 1510, 633])])
    features = tower(text)
    bos_feature = tower.ln_final(tower.token_embedding(text) + tower.positional_embedding)[1, 0] @ tower.text_projection
    print("truncated caption pooled at the start token:", torch.allclose(features[1], bos_feature))
