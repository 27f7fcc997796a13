import torch
import torch.nn as nn

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3


class Textual(nn.Module):
    """Text branch wrapper used for export: embeddings -> transformer -> EOT feature -> projection."""

    def __init__(self, vocab_size, context_length, width, embed_dim):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.positional_embedding = nn.Parameter(torch.randn(context_length, width) * 0.02)
        layer = nn.TransformerEncoderLayer(width, nhead=4, dim_feedforward=2 * width, batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, num_layers=1)
        self.ln_final = nn.LayerNorm(width)
        self.text_projection = nn.Parameter(torch.randn(width, embed_dim) * width ** -0.5)

    def hidden(self, text):
        x = self.token_embedding(text) + self.positional_embedding
        return self.ln_final(self.transformer(x))

    def forward(self, text):
        x = self.hidden(text)
        # take features from the eot embedding (eot_token is the highest number in each sequence)
        x = x[torch.arange(x.shape[0]), text.argmax(dim=-1)] @ self.text_projection
        return x


def encode(token_ids, context_length):
    row = [BOS_ID] + token_ids + [EOS_ID]
    return row + [PAD_ID] * (context_length - len(row))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Textual(vocab_size=49408, context_length=12, width=32, embed_dim=16).eval()
    text = torch.tensor([encode([1714, 305, 9021], 12), encode([48000, 77, 512, 6], 12)])
    with torch.no_grad():
        features = model(text)
        hidden = model.hidden(text)
    eos_pos = (text == EOS_ID).int().argmax(dim=-1)
    reference = hidden[torch.arange(2), eos_pos] @ model.text_projection
    print("pooled position:", text.argmax(dim=-1).tolist(), "eos position:", eos_pos.tolist())
    print("matches eos features:", torch.allclose(features, reference, atol=1e-5))
